import type { SkuRef } from '../catalog/skus.ts';
import type { SeedContext } from '../seed-context.ts';

/** An order line as later groups need it. */
export interface OrderLine {
  readonly id: string;
  readonly orderId: string;
  readonly lineNumber: number;
  readonly sku: SkuRef;
  readonly quantity: number;
  readonly unitPrice: string;
  readonly currency: 'EUR' | 'USD';
}

/** One line per SKU, numbered from 1 in the order given, all at one price. */
export async function seedOrderLines({ put, brandId, orderId, skus, quantityOf, unitPrice, currency, statusOf }: Pick<SeedContext, 'put' | 'brandId'> & {
  orderId: string;
  skus: readonly SkuRef[];
  quantityOf: (sku: SkuRef) => number;
  unitPrice: string;
  currency: 'EUR' | 'USD';
  statusOf: (sku: SkuRef) => string;
}): Promise<OrderLine[]> {
  const records = await put('order-items', brandId, skus.map((sku, i) => ({
    orderId, productId: sku.productId, productOptionId: sku.productOptionId, skuId: sku.id,
    lineNumber: i + 1, quantity: quantityOf(sku), unitPrice, currency, status: statusOf(sku),
  })));
  return records.map((record, i) => ({ id: record.id, orderId, lineNumber: i + 1, sku: skus[i]!, quantity: quantityOf(skus[i]!), unitPrice, currency }));
}
