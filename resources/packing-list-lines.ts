import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'packing-list-lines',
  scope: 'brand',
  area: 'logistics',
  description: 'A line of a packing list: one SKU in a range of cartons.',
  fields: {
    id: { type: 'uuid' },
    packingListId: { type: 'uuid', references: 'packing-lists' },
    orderItemId: { type: 'uuid', references: 'order-items' },
    skuId: { type: 'uuid', references: 'skus' },
    lineNumber: { type: 'integer', description: 'Position on the packing list, from 1.' },
    cartonFrom: { type: 'integer', description: 'First carton number of the range.' },
    cartonTo: { type: 'integer', description: 'Last carton number of the range.' },
    quantity: { type: 'integer', description: 'Units in the range.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    packingListId: { field: 'packingListId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    packingList: { resource: 'packing-lists', on: { packingListId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  sorts: ['lineNumber', 'quantity'],
  ranges: ['quantity'],
  countable: ['packingListId', 'orderItemId', 'skuId'],
});
