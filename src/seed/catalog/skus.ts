import { COLOURS } from '../reference-data/palette.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import { SIZES, type Size } from '../reference-data/sizes.ts';
import type { SeedContext } from '../seed-context.ts';
import { ean13 } from '../values.ts';
import { COLOURWAY_PLANS, type ColourwayKey } from './colourways.ts';
import type { ProductVersionIds } from './product-versions.ts';
import { PRODUCT_CODES, type ProductKey } from './products.ts';

/**
 * One SKU per colourway and size, with its size value and an EAN-13, and the
 * graded sizes (S to L) the measurement tables of the tee v2 and the rain
 * jacket apply to.
 */

/** A SKU as later groups need it: the order lines, shipments and receipts name it by id and by code. */
export interface SkuRef {
  readonly id: string;
  readonly code: string;
  readonly barcode: string;
  readonly productId: string;
  readonly productOptionId: string;
  readonly size: Size;
}

/** The SKUs of one colourway, XS to XL. */
export function skusOf({ skus }: { skus: readonly SkuRef[] }, productOptionId: string): SkuRef[] {
  return skus.filter((sku) => sku.productOptionId === productOptionId);
}

/** A SKU to write: the colourway and product it belongs to, its size, code, barcode and status. */
export interface SkuPlan {
  readonly colourway: ColourwayKey;
  readonly product: ProductKey;
  readonly size: Size;
  readonly code: string;
  readonly barcode: string;
  readonly status: 'active' | 'inactive';
}

/** Every colourway in XS to XL; barcodes take item references from 101 in that order; a draft colourway's SKUs are inactive. */
export function planSkus(): SkuPlan[] {
  return COLOURWAY_PLANS.flatMap(([colourway, plan]) => SIZES.map((size) => ({ colourway, plan, size })))
    .map(({ colourway, plan, size }, i) => ({
      colourway,
      product: plan.product,
      size,
      code: `${PRODUCT_CODES[plan.product]}-${COLOURS[plan.colour].code}-${size}`,
      barcode: ean13(101 + i),
      status: plan.status === 'draft' ? 'inactive' : 'active',
    }));
}

export async function seedSkus({ put, brandId, reference, products, colourways, measurementTables }: SeedContext & {
  reference: ReferenceIds;
  products: Record<ProductKey, string>;
  colourways: Record<ColourwayKey, string>;
  measurementTables: ProductVersionIds['measurementTables'];
}): Promise<SkuRef[]> {
  const plans = planSkus();
  const records = await put('skus', brandId, plans.map((plan) => ({
    productId: products[plan.product], productOptionId: colourways[plan.colourway], code: plan.code, barcode: plan.barcode, status: plan.status,
  })));
  const skus: SkuRef[] = records.map((record, i) => ({
    id: record.id,
    code: plans[i]!.code,
    barcode: plans[i]!.barcode,
    productId: products[plans[i]!.product],
    productOptionId: colourways[plans[i]!.colourway],
    size: plans[i]!.size,
  }));
  await put('sku-dimension-values', brandId, skus.map((sku) => ({ skuId: sku.id, dimensionValueId: reference.sizes[sku.size] })));
  const graded = (productOptionId: string): SkuRef[] => skus.filter((sku) => sku.productOptionId === productOptionId && ['S', 'M', 'L'].includes(sku.size));
  await put('measurement-table-skus', brandId, [
    ...[colourways.teeNavy, colourways.teeOat].flatMap(graded).map((sku) => ({ measurementTableId: measurementTables.teeV2, skuId: sku.id })),
    ...[colourways.rainJacketNavy, colourways.rainJacketForest].flatMap(graded).map((sku) => ({ measurementTableId: measurementTables.rainJacketV1, skuId: sku.id })),
  ]);
  return skus;
}
