import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-group-dimensions',
  scope: 'brand',
  area: 'catalog',
  description: 'A dimension that belongs to a dimension group, in order.',
  fields: {
    id: { type: 'uuid' },
    dimensionGroupId: { type: 'uuid', references: 'dimension-groups' },
    dimensionId: { type: 'uuid', references: 'dimensions' },
    sequence: { type: 'integer', description: 'Order within the group.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionGroupId: { field: 'dimensionGroupId', match: 'exact' },
    dimensionId: { field: 'dimensionId', match: 'exact' },
  },
  includes: {
    dimensionGroup: { resource: 'dimension-groups', on: { dimensionGroupId: 'id' } },
    dimension: { resource: 'dimensions', on: { dimensionId: 'id' } },
  },
  countable: ['dimensionGroupId', 'dimensionId'],
});
