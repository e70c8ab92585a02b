import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'production-run-item-revisions',
  scope: 'brand',
  area: 'orders',
  description: 'A past change of a production run item\'s planned or completed quantity.',
  fields: {
    id: { type: 'uuid' },
    productionRunItemId: { type: 'uuid', references: 'production-run-items' },
    revisionNumber: { type: 'integer', description: 'Counts up from 1 per production run item.' },
    plannedQuantity: { type: 'integer' },
    completedQuantity: { type: 'integer' },
    reason: { type: 'string' },
    effectiveAt: { type: 'timestamp', description: 'When the revised quantities took effect.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productionRunItemId: { field: 'productionRunItemId', match: 'exact' },
  },
  includes: {
    productionRunItem: { resource: 'production-run-items', on: { productionRunItemId: 'id' } },
  },
  sorts: ['revisionNumber', 'effectiveAt'],
  ranges: ['effectiveAt'],
  countable: ['productionRunItemId'],
});
