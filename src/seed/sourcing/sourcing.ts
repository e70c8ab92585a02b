import type { CatalogIds } from '../catalog/catalog.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { QUOTE_REVISIONS, seedQuoteRevision } from './quote-revision.ts';
import { SAMPLE_ROUNDS, seedSampleRound } from './sample-round.ts';
import { seedSourcingRequests, type SourcingIds } from './sourcing-requests.ts';

export type { SourcingIds } from './sourcing-requests.ts';

/**
 * Sourcing: Porto Knitwear and Saigon Apparel quote the tee (Porto wins on
 * lead time after a second revision), Saigon quotes the rain jacket; a proto
 * of the tee and a fit sample of the jacket each fail their first round and
 * pass the second. The steps are written in the order they happened.
 */
export async function seedSourcing(context: SeedContext & { reference: ReferenceIds; parties: PartyIds; catalog: CatalogIds }): Promise<SourcingIds> {
  const { quotes, samples } = await seedSourcingRequests(context);
  await seedQuoteRevision({ ...context, quotes, plan: QUOTE_REVISIONS.first });
  await seedSampleRound({ ...context, samples, plan: SAMPLE_ROUNDS.teeFirst });
  await seedQuoteRevision({ ...context, quotes, plan: QUOTE_REVISIONS.second });
  await seedSampleRound({ ...context, samples, plan: SAMPLE_ROUNDS.jacketFirst });
  await seedSampleRound({ ...context, samples, plan: SAMPLE_ROUNDS.teeSecond });
  await seedSampleRound({ ...context, samples, plan: SAMPLE_ROUNDS.jacketSecond });
  return { quotes, samples };
}
