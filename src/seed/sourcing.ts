import type { CatalogIds } from './catalog.ts';
import type { PartyIds } from './parties.ts';
import { OUTERWEAR_REVIEW_CHECKPOINTS, TOPS_REVIEW_CHECKPOINTS, type ReferenceIds } from './reference-data.ts';
import { PEOPLE } from './people.ts';
import type { SeedContext } from './seed-context.ts';

/**
 * Sourcing: Porto Knitwear and Saigon Apparel quote the tee (Porto wins on
 * lead time after a second revision), Saigon quotes the rain jacket; a proto
 * of the tee and a fit sample of the jacket each fail their first round and
 * pass the second.
 */

export interface SourcingIds {
  readonly quotes: Record<'teePorto' | 'teeSaigon' | 'jacketSaigon', string>;
  readonly samples: Record<'teeProto' | 'jacketFit', string>;
}

export async function seedSourcing({ put, putNamed, clock, brandId, reference, parties, catalog }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<SourcingIds> {
  const { suppliers } = parties;
  const { products, colourways } = catalog;
  const buyerUserId = PEOPLE.buyer;

  // Requests for quotes and samples go out together.
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

  // First revisions.
  clock.jumpTo('2026-01-30T10:00:00.000Z');
  const firstRevisions = await putNamed('quote-revisions', brandId, {
    teePorto: { quoteId: quotes.teePorto, revisionNumber: 1, status: 'superseded', submittedAt: '2026-01-28T10:15:00.000Z' },
    teeSaigon: { quoteId: quotes.teeSaigon, revisionNumber: 1, status: 'submitted', submittedAt: '2026-01-30T03:40:00.000Z' },
    jacketSaigon: { quoteId: quotes.jacketSaigon, revisionNumber: 1, status: 'superseded', submittedAt: '2026-01-29T07:05:00.000Z' },
  });
  const item = (quoteId: string, quoteRevisionId: string, productOptionId: string, description: string, quantity: number, unitPrice: string, currency: string, leadTimeDays: number) => ({
    quoteId, quoteRevisionId, productOptionId, description, quantity, unitPrice, currency, leadTimeDays,
  });
  const firstItems = await putNamed('quote-items', brandId, {
    teePortoNavy: item(quotes.teePorto, firstRevisions.teePorto, colourways.teeNavy, 'Everyday Organic Tee, Navy, XS-XL', 400, '4.60', 'EUR', 50),
    teePortoOat: item(quotes.teePorto, firstRevisions.teePorto, colourways.teeOat, 'Everyday Organic Tee, Oat, XS-XL', 400, '4.60', 'EUR', 50),
    teeSaigonNavy: item(quotes.teeSaigon, firstRevisions.teeSaigon, colourways.teeNavy, 'Everyday Organic Tee, Navy, XS-XL (MOQ 1,000)', 1000, '3.10', 'USD', 75),
    teeSaigonOat: item(quotes.teeSaigon, firstRevisions.teeSaigon, colourways.teeOat, 'Everyday Organic Tee, Oat, XS-XL (MOQ 1,000)', 1000, '3.10', 'USD', 75),
    jacketNavy: item(quotes.jacketSaigon, firstRevisions.jacketSaigon, colourways.rainJacketNavy, 'Coastline Rain Jacket, Navy, 2-layer taping', 180, '18.90', 'USD', 70),
    jacketForest: item(quotes.jacketSaigon, firstRevisions.jacketSaigon, colourways.rainJacketForest, 'Coastline Rain Jacket, Forest, 2-layer taping', 180, '18.90', 'USD', 70),
  });
  await put('quote-price-bands', brandId, [
    { quoteItemId: firstItems.teeSaigonNavy, minQuantity: 1000, maxQuantity: 2499, unitPrice: '3.10', currency: 'USD' },
    { quoteItemId: firstItems.teeSaigonNavy, minQuantity: 2500, maxQuantity: null, unitPrice: '2.85', currency: 'USD' },
    { quoteItemId: firstItems.teeSaigonOat, minQuantity: 1000, maxQuantity: 2499, unitPrice: '3.10', currency: 'USD' },
    { quoteItemId: firstItems.teeSaigonOat, minQuantity: 2500, maxQuantity: null, unitPrice: '2.85', currency: 'USD' },
  ]);
  await put('quote-notes', brandId, [
    { quoteId: quotes.teeSaigon, authorUserId: buyerUserId, body: 'MOQ of 1,000 per colourway and a 75-day lead time miss Drop 1. Not going ahead for SS26.', visibility: 'internal' },
    { quoteId: quotes.teePorto, authorUserId: buyerUserId, body: 'Can you confirm the GOTS scope certificate covers the 1x1 rib as well as the jersey?', visibility: 'supplier' },
  ]);

  // The tee proto, round 1: back from Porto, rejected.
  clock.jumpTo('2026-02-05T11:00:00.000Z');
  const teeRounds = await putNamed('sample-rounds', brandId, {
    first: {
      sampleId: samples.teeProto, roundNumber: 1, status: 'reviewed', sentAt: '2026-02-02T16:00:00.000Z', receivedAt: '2026-02-05T10:30:00.000Z',
      decision: 'rejected', comments: 'Neck rib too tight, fails stretch recovery; body length 1.5 cm short in M.',
    },
  });
  await put('sample-checklist-results', brandId, TOPS_REVIEW_CHECKPOINTS.map((checkpoint, i) => ({
    sampleRoundId: teeRounds.first,
    checklistId: reference.checklists.topsReview,
    checkpoint,
    result: i === 0 || i === 2 ? 'fail' : 'pass',
    comment: i === 0 ? 'Body length M 69.5 cm against 71 cm spec.' : i === 2 ? 'Neckband does not recover after 10 s stretch.' : null,
  })));

  // Second revisions: Porto sharpens its price, Saigon upgrades the jacket's taping.
  clock.jumpTo('2026-02-06T09:00:00.000Z');
  const secondRevisions = await putNamed('quote-revisions', brandId, {
    teePorto: { quoteId: quotes.teePorto, revisionNumber: 2, status: 'accepted', submittedAt: '2026-02-05T09:40:00.000Z' },
    jacketSaigon: { quoteId: quotes.jacketSaigon, revisionNumber: 2, status: 'accepted', submittedAt: '2026-02-06T02:20:00.000Z' },
  });
  const secondItems = await putNamed('quote-items', brandId, {
    teePortoNavy: item(quotes.teePorto, secondRevisions.teePorto, colourways.teeNavy, 'Everyday Organic Tee, Navy, XS-XL', 400, '4.20', 'EUR', 45),
    teePortoOat: item(quotes.teePorto, secondRevisions.teePorto, colourways.teeOat, 'Everyday Organic Tee, Oat, XS-XL', 400, '4.20', 'EUR', 45),
    jacketNavy: item(quotes.jacketSaigon, secondRevisions.jacketSaigon, colourways.rainJacketNavy, 'Coastline Rain Jacket, Navy, 3-layer taping', 180, '17.40', 'USD', 60),
    jacketForest: item(quotes.jacketSaigon, secondRevisions.jacketSaigon, colourways.rainJacketForest, 'Coastline Rain Jacket, Forest, 3-layer taping', 180, '17.40', 'USD', 60),
  });
  const bands = (quoteItemId: string, currency: string, steps: readonly [number, number | null, string][]) =>
    steps.map(([minQuantity, maxQuantity, unitPrice]) => ({ quoteItemId, minQuantity, maxQuantity, unitPrice, currency }));
  await put('quote-price-bands', brandId, [
    ...bands(secondItems.teePortoNavy, 'EUR', [[250, 499, '4.20'], [500, 999, '3.98'], [1000, null, '3.80']]),
    ...bands(secondItems.teePortoOat, 'EUR', [[250, 499, '4.20'], [500, 999, '3.98'], [1000, null, '3.80']]),
    ...bands(secondItems.jacketNavy, 'USD', [[150, 299, '17.40'], [300, null, '16.80']]),
    ...bands(secondItems.jacketForest, 'USD', [[150, 299, '17.40'], [300, null, '16.80']]),
  ]);
  await put('quote-notes', brandId, [
    { quoteId: quotes.teePorto, authorUserId: buyerUserId, body: 'Revision 2 at 4.20 EUR FCA Porto holds if we confirm by 20 February. Nearshoring saves about three weeks against Saigon.', visibility: 'internal' },
    { quoteId: quotes.jacketSaigon, authorUserId: buyerUserId, body: 'Thanks for moving to 3-layer seam tape. 17.40 USD FOB accepted for both colourways.', visibility: 'supplier' },
  ]);

  // The jacket fit sample, round 1: the seam taping fails the wash test.
  clock.jumpTo('2026-02-13T12:00:00.000Z');
  const jacketRounds = await putNamed('sample-rounds', brandId, {
    first: {
      sampleId: samples.jacketFit, roundNumber: 1, status: 'reviewed', sentAt: '2026-02-06T08:00:00.000Z', receivedAt: '2026-02-13T10:15:00.000Z',
      decision: 'rejected', comments: 'Seam taping failed wash test; resample.',
    },
  });
  await put('sample-checklist-results', brandId, OUTERWEAR_REVIEW_CHECKPOINTS.map((checkpoint, i) => ({
    sampleRoundId: jacketRounds.first,
    checklistId: reference.checklists.outerwearReview,
    checkpoint,
    result: i === 1 ? 'fail' : 'pass',
    comment: i === 1 ? 'Tape lifting at the shoulder seams after the third wash.' : null,
  })));

  // The tee proto, round 2: approved.
  clock.jumpTo('2026-02-16T10:30:00.000Z');
  const teeSecond = await putNamed('sample-rounds', brandId, {
    second: {
      sampleId: samples.teeProto, roundNumber: 2, status: 'reviewed', sentAt: '2026-02-12T15:00:00.000Z', receivedAt: '2026-02-16T09:45:00.000Z',
      decision: 'approved', comments: 'All points within tolerance. Approved for bulk on 180 gsm jersey.',
    },
  });
  await put('sample-checklist-results', brandId, TOPS_REVIEW_CHECKPOINTS.map((checkpoint) => ({
    sampleRoundId: teeSecond.second, checklistId: reference.checklists.topsReview, checkpoint, result: 'pass', comment: null,
  })));

  // The jacket fit sample, round 2: approved.
  clock.jumpTo('2026-03-03T11:00:00.000Z');
  const jacketSecond = await putNamed('sample-rounds', brandId, {
    second: {
      sampleId: samples.jacketFit, roundNumber: 2, status: 'reviewed', sentAt: '2026-02-24T07:30:00.000Z', receivedAt: '2026-03-03T09:20:00.000Z',
      decision: 'approved', comments: '3-layer tape holds after 5 washes. Approved for bulk.',
    },
  });
  await put('sample-checklist-results', brandId, OUTERWEAR_REVIEW_CHECKPOINTS.map((checkpoint) => ({
    sampleRoundId: jacketSecond.second, checklistId: reference.checklists.outerwearReview, checkpoint, result: 'pass', comment: null,
  })));

  return { quotes, samples };
}
