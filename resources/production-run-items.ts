import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'production-run-items',
  scope: 'brand',
  area: 'orders',
  description: 'The quantity of one order line planned and completed in a production run.',
  fields: {
    id: { type: 'uuid' },
    productionRunId: { type: 'uuid', references: 'production-runs' },
    orderItemId: { type: 'uuid', references: 'order-items' },
    skuId: { type: 'uuid', references: 'skus' },
    plannedQuantity: { type: 'integer' },
    completedQuantity: { type: 'integer' },
    status: { type: 'string', description: 'Such as planned, cutting, sewing, finishing, completed.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productionRunId: { field: 'productionRunId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    productionRun: { resource: 'production-runs', on: { productionRunId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
    revisions: { resource: 'production-run-item-revisions', on: { id: 'productionRunItemId' } },
  },
  sorts: ['plannedQuantity', 'completedQuantity'],
  ranges: ['plannedQuantity', 'completedQuantity'],
  countable: ['status', 'productionRunId', 'orderItemId', 'skuId'],
});
