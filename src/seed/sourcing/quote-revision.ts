import type { CatalogIds } from '../catalog/catalog.ts';
import type { ColourwayKey } from '../catalog/colourways.ts';
import { PEOPLE } from '../people.ts';
import type { SeedContext } from '../seed-context.ts';
import type { QuoteKey } from './sourcing-requests.ts';

/**
 * A round of quoting: the suppliers' revisions of their quotes, each with its
 * items (one per colourway), price bands by quantity, and the buyer's notes.
 */

interface QuoteItemPlan {
  readonly quote: QuoteKey;
  readonly colourway: ColourwayKey;
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: string;
  readonly currency: 'EUR' | 'USD';
  readonly leadTimeDays: number;
}

export interface QuoteRevisionPlan {
  /** When the buyer books it. */
  readonly at: string;
  readonly revisions: Partial<Record<QuoteKey, { revisionNumber: number; status: string; submittedAt: string }>>;
  readonly items: Readonly<Record<string, QuoteItemPlan>>;
  /** Price bands of items named in `items`: minimum quantity, maximum (null: open-ended), unit price. */
  readonly bands: readonly { item: string; steps: readonly (readonly [number, number | null, string])[] }[];
  readonly notes: readonly { quote: QuoteKey; body: string; visibility: 'internal' | 'supplier' }[];
}

const TEE_PORTO_BANDS = [[250, 499, '4.20'], [500, 999, '3.98'], [1000, null, '3.80']] as const;
const JACKET_BANDS = [[150, 299, '17.40'], [300, null, '16.80']] as const;

export const QUOTE_REVISIONS: Readonly<Record<'first' | 'second', QuoteRevisionPlan>> = {
  first: {
    at: '2026-01-30T10:00:00.000Z',
    revisions: {
      teePorto: { revisionNumber: 1, status: 'superseded', submittedAt: '2026-01-28T10:15:00.000Z' },
      teeSaigon: { revisionNumber: 1, status: 'submitted', submittedAt: '2026-01-30T03:40:00.000Z' },
      jacketSaigon: { revisionNumber: 1, status: 'superseded', submittedAt: '2026-01-29T07:05:00.000Z' },
    },
    items: {
      teePortoNavy: { quote: 'teePorto', colourway: 'teeNavy', description: 'Everyday Organic Tee, Navy, XS-XL', quantity: 400, unitPrice: '4.60', currency: 'EUR', leadTimeDays: 50 },
      teePortoOat: { quote: 'teePorto', colourway: 'teeOat', description: 'Everyday Organic Tee, Oat, XS-XL', quantity: 400, unitPrice: '4.60', currency: 'EUR', leadTimeDays: 50 },
      teeSaigonNavy: { quote: 'teeSaigon', colourway: 'teeNavy', description: 'Everyday Organic Tee, Navy, XS-XL (MOQ 1,000)', quantity: 1000, unitPrice: '3.10', currency: 'USD', leadTimeDays: 75 },
      teeSaigonOat: { quote: 'teeSaigon', colourway: 'teeOat', description: 'Everyday Organic Tee, Oat, XS-XL (MOQ 1,000)', quantity: 1000, unitPrice: '3.10', currency: 'USD', leadTimeDays: 75 },
      jacketNavy: { quote: 'jacketSaigon', colourway: 'rainJacketNavy', description: 'Coastline Rain Jacket, Navy, 2-layer taping', quantity: 180, unitPrice: '18.90', currency: 'USD', leadTimeDays: 70 },
      jacketForest: { quote: 'jacketSaigon', colourway: 'rainJacketForest', description: 'Coastline Rain Jacket, Forest, 2-layer taping', quantity: 180, unitPrice: '18.90', currency: 'USD', leadTimeDays: 70 },
    },
    bands: [
      { item: 'teeSaigonNavy', steps: [[1000, 2499, '3.10'], [2500, null, '2.85']] },
      { item: 'teeSaigonOat', steps: [[1000, 2499, '3.10'], [2500, null, '2.85']] },
    ],
    notes: [
      { quote: 'teeSaigon', body: 'MOQ of 1,000 per colourway and a 75-day lead time miss Drop 1. Not going ahead for SS26.', visibility: 'internal' },
      { quote: 'teePorto', body: 'Can you confirm the GOTS scope certificate covers the 1x1 rib as well as the jersey?', visibility: 'supplier' },
    ],
  },
  // Porto sharpens its price, Saigon upgrades the jacket's taping.
  second: {
    at: '2026-02-06T09:00:00.000Z',
    revisions: {
      teePorto: { revisionNumber: 2, status: 'accepted', submittedAt: '2026-02-05T09:40:00.000Z' },
      jacketSaigon: { revisionNumber: 2, status: 'accepted', submittedAt: '2026-02-06T02:20:00.000Z' },
    },
    items: {
      teePortoNavy: { quote: 'teePorto', colourway: 'teeNavy', description: 'Everyday Organic Tee, Navy, XS-XL', quantity: 400, unitPrice: '4.20', currency: 'EUR', leadTimeDays: 45 },
      teePortoOat: { quote: 'teePorto', colourway: 'teeOat', description: 'Everyday Organic Tee, Oat, XS-XL', quantity: 400, unitPrice: '4.20', currency: 'EUR', leadTimeDays: 45 },
      jacketNavy: { quote: 'jacketSaigon', colourway: 'rainJacketNavy', description: 'Coastline Rain Jacket, Navy, 3-layer taping', quantity: 180, unitPrice: '17.40', currency: 'USD', leadTimeDays: 60 },
      jacketForest: { quote: 'jacketSaigon', colourway: 'rainJacketForest', description: 'Coastline Rain Jacket, Forest, 3-layer taping', quantity: 180, unitPrice: '17.40', currency: 'USD', leadTimeDays: 60 },
    },
    bands: [
      { item: 'teePortoNavy', steps: TEE_PORTO_BANDS },
      { item: 'teePortoOat', steps: TEE_PORTO_BANDS },
      { item: 'jacketNavy', steps: JACKET_BANDS },
      { item: 'jacketForest', steps: JACKET_BANDS },
    ],
    notes: [
      { quote: 'teePorto', body: 'Revision 2 at 4.20 EUR FCA Porto holds if we confirm by 20 February. Nearshoring saves about three weeks against Saigon.', visibility: 'internal' },
      { quote: 'jacketSaigon', body: 'Thanks for moving to 3-layer seam tape. 17.40 USD FOB accepted for both colourways.', visibility: 'supplier' },
    ],
  },
};

export async function seedQuoteRevision({ put, putNamed, clock, brandId, catalog, quotes, plan }: SeedContext & {
  catalog: CatalogIds;
  quotes: Record<QuoteKey, string>;
  plan: QuoteRevisionPlan;
}): Promise<void> {
  clock.jumpTo(plan.at);
  const revisions = await putNamed('quote-revisions', brandId, Object.fromEntries(Object.entries(plan.revisions).map(([quote, revision]) => [
    quote, { quoteId: quotes[quote as QuoteKey], ...revision },
  ])));
  const items = await putNamed('quote-items', brandId, Object.fromEntries(Object.entries(plan.items).map(([key, { quote, colourway, ...rest }]) => [key, {
    quoteId: quotes[quote], quoteRevisionId: revisions[quote]!, productOptionId: catalog.colourways[colourway], ...rest,
  }])));
  await put('quote-price-bands', brandId, plan.bands.flatMap(({ item: key, steps }) => steps.map(([minQuantity, maxQuantity, unitPrice]) => ({
    quoteItemId: items[key]!, minQuantity, maxQuantity, unitPrice, currency: plan.items[key]!.currency,
  }))));
  await put('quote-notes', brandId, plan.notes.map(({ quote, body, visibility }) => ({ quoteId: quotes[quote], authorUserId: PEOPLE.buyer, body, visibility })));
}
