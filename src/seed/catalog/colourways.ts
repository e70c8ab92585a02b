import { COLOURS, type Colour } from '../reference-data/palette.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import { SIZES } from '../reference-data/sizes.ts';
import { recordOf } from '../record-of.ts';
import type { SeedContext } from '../seed-context.ts';
import { PRODUCT_NAMES, type ProductKey } from './products.ts';

/**
 * Colourways (product options), and what describes them: the colour option
 * value, the sizes they come in, and their cost, wholesale and retail prices.
 */

export type ColourwayKey =
  | 'teeNavy' | 'teeOat' | 'teeForest'
  | 'pocketTeeNavy' | 'pocketTeeOat'
  | 'linenTeeOat'
  | 'rainJacketNavy' | 'rainJacketForest'
  | 'fleeceForest' | 'fleeceOat';

export interface ColourwayPlan {
  readonly product: ProductKey;
  readonly colour: Colour;
  readonly status: string;
  /** Cost, wholesale (EUR, every market) and retail in NL (EUR) and the US (USD). */
  readonly prices: { cost: string; costCurrency: 'EUR' | 'USD'; wholesale: string; retailEur: string; retailUsd: string };
}

const TEE_PRICES = { cost: '4.20', costCurrency: 'EUR', wholesale: '14.00', retailEur: '29.95', retailUsd: '34.00' } as const;
const POCKET_PRICES = { cost: '5.80', costCurrency: 'EUR', wholesale: '18.50', retailEur: '39.95', retailUsd: '45.00' } as const;
const LINEN_PRICES = { cost: '9.40', costCurrency: 'EUR', wholesale: '27.50', retailEur: '59.95', retailUsd: '69.00' } as const;
const JACKET_PRICES = { cost: '17.40', costCurrency: 'USD', wholesale: '72.00', retailEur: '149.95', retailUsd: '169.00' } as const;
const FLEECE_PRICES = { cost: '14.10', costCurrency: 'USD', wholesale: '44.00', retailEur: '89.95', retailUsd: '99.00' } as const;

export const COLOURWAYS: Readonly<Record<ColourwayKey, ColourwayPlan>> = {
  teeNavy: { product: 'tee', colour: 'navy', status: 'active', prices: TEE_PRICES },
  teeOat: { product: 'tee', colour: 'oat', status: 'active', prices: TEE_PRICES },
  teeForest: { product: 'tee', colour: 'forest', status: 'draft', prices: TEE_PRICES },
  pocketTeeNavy: { product: 'pocketTee', colour: 'navy', status: 'active', prices: POCKET_PRICES },
  pocketTeeOat: { product: 'pocketTee', colour: 'oat', status: 'active', prices: POCKET_PRICES },
  linenTeeOat: { product: 'linenTee', colour: 'oat', status: 'active', prices: LINEN_PRICES },
  rainJacketNavy: { product: 'rainJacket', colour: 'navy', status: 'active', prices: JACKET_PRICES },
  rainJacketForest: { product: 'rainJacket', colour: 'forest', status: 'active', prices: JACKET_PRICES },
  fleeceForest: { product: 'fleece', colour: 'forest', status: 'active', prices: FLEECE_PRICES },
  fleeceOat: { product: 'fleece', colour: 'oat', status: 'active', prices: FLEECE_PRICES },
};

/** The colourway plans, in the order they are written. */
export const COLOURWAY_PLANS = Object.entries(COLOURWAYS) as [ColourwayKey, ColourwayPlan][];

export async function seedColourways({ put, putNamed, brandId, reference, products }: SeedContext & {
  reference: ReferenceIds;
  products: Record<ProductKey, string>;
}): Promise<Record<ColourwayKey, string>> {
  const colourways = await putNamed('product-options', brandId, recordOf(COLOURWAY_PLANS.map(([key]) => key), (key) => {
    const plan = COLOURWAYS[key];
    return {
      productId: products[plan.product],
      colorId: reference.colors[plan.colour],
      code: COLOURS[plan.colour].code,
      name: `${PRODUCT_NAMES[plan.product]}, ${COLOURS[plan.colour].name}`,
      status: plan.status,
    };
  }));
  await put('product-option-values', brandId, COLOURWAY_PLANS.map(([key, plan]) => ({
    productOptionId: colourways[key], optionValueId: reference.colorOptionValues[plan.colour],
  })));
  await put('product-option-dimension-values', brandId, COLOURWAY_PLANS.flatMap(([key]) => SIZES.map((size) => ({
    productOptionId: colourways[key], dimensionValueId: reference.sizes[size],
  }))));
  await put('product-option-prices', brandId, COLOURWAY_PLANS.flatMap(([key, { prices }]) => [
    { productOptionId: colourways[key], priceType: 'cost', amount: prices.cost, currency: prices.costCurrency, countryId: null, validFrom: '2026-02-01' },
    { productOptionId: colourways[key], priceType: 'wholesale', amount: prices.wholesale, currency: 'EUR', countryId: null, validFrom: '2026-02-01' },
    { productOptionId: colourways[key], priceType: 'retail', amount: prices.retailEur, currency: 'EUR', countryId: reference.countries.NL, validFrom: '2026-04-15' },
    { productOptionId: colourways[key], priceType: 'retail', amount: prices.retailUsd, currency: 'USD', countryId: reference.countries.US, validFrom: '2026-04-15' },
  ]));
  return colourways;
}
