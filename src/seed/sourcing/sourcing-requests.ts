import type { CatalogIds } from '../catalog/catalog.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { SeedContext } from '../seed-context.ts';

/**
 * The requests that start sourcing, sent together: quotes for the tee from
 * Porto Knitwear and Saigon Apparel and for the rain jacket from Saigon, a
 * proto of the tee and a fit sample of the jacket.
 */

export type QuoteKey = 'teePorto' | 'teeSaigon' | 'jacketSaigon';
export type SampleKey = 'teeProto' | 'jacketFit';

export interface SourcingIds {
  readonly quotes: Record<QuoteKey, string>;
  readonly samples: Record<SampleKey, string>;
}

export async function seedSourcingRequests({ putNamed, clock, brandId, parties: { suppliers }, catalog: { products, colourways } }: SeedContext & {
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<SourcingIds> {
  clock.jumpTo('2026-01-26T09:00:00.000Z');
  const quotes = await putNamed('quotes', brandId, {
    teePorto: { supplierId: suppliers.porto, productId: products.tee, code: 'Q-2026-014', status: 'accepted', currency: 'EUR', incoterm: 'FCA', validUntil: '2026-03-31' },
    teeSaigon: { supplierId: suppliers.saigon, productId: products.tee, code: 'Q-2026-015', status: 'rejected', currency: 'USD', incoterm: 'FOB', validUntil: '2026-03-15' },
    jacketSaigon: { supplierId: suppliers.saigon, productId: products.rainJacket, code: 'Q-2026-016', status: 'accepted', currency: 'USD', incoterm: 'FOB', validUntil: '2026-04-30' },
  });
  const samples = await putNamed('samples', brandId, {
    teeProto: {
      productId: products.tee, productOptionId: colourways.teeNavy, supplierId: suppliers.porto,
      code: 'SMP-NW-TS-001-01', type: 'proto', status: 'approved', requestedOn: '2026-01-26', dueOn: '2026-02-06',
    },
    jacketFit: {
      productId: products.rainJacket, productOptionId: colourways.rainJacketNavy, supplierId: suppliers.saigon,
      code: 'SMP-NW-JK-001-01', type: 'fit', status: 'approved', requestedOn: '2026-01-26', dueOn: '2026-02-13',
    },
  });
  return { quotes, samples };
}
