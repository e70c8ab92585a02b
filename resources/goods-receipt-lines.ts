import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'goods-receipt-lines',
  scope: 'brand',
  area: 'logistics',
  description: 'A SKU and quantity counted in at a goods receipt. Deleted lines stay listed with `deletedAt` set.',
  fields: {
    id: { type: 'uuid' },
    goodsReceiptId: { type: 'uuid' },
    orderItemId: { type: 'uuid' },
    skuId: { type: 'uuid' },
    qtyReceived: { type: 'decimal' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
    deletedAt: { type: 'timestamp' },
  },
  filters: {
    goodsReceiptId: { field: 'goodsReceiptId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    goodsReceipt: { resource: 'goods-receipts', on: { goodsReceiptId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  sorts: ['qtyReceived'],
  ranges: ['qtyReceived'],
  countable: ['goodsReceiptId', 'orderItemId', 'skuId'],
});
