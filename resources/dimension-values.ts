import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-values',
  scope: 'brand',
  area: 'catalog',
  description: 'One value of a dimension, such as M or 32.',
  fields: {
    id: { type: 'uuid' },
    dimensionId: { type: 'uuid', references: 'dimensions' },
    code: { type: 'string' },
    name: { type: 'string' },
    sequence: { type: 'integer', description: 'Order within the dimension (XS before S).' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionId: { field: 'dimensionId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    dimension: { resource: 'dimensions', on: { dimensionId: 'id' } },
  },
  sorts: ['code', 'name', 'sequence'],
  countable: ['dimensionId'],
});
