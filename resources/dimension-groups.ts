import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-groups',
  scope: 'brand',
  area: 'catalog',
  description: 'A group of size dimensions (such as alpha sizes) with its default size curve.',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    defaultCurveId: { type: 'uuid' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
    defaultCurveId: { field: 'defaultCurveId', match: 'exact' },
  },
  includes: {
    defaultCurve: { resource: 'dimension-curves', on: { defaultCurveId: 'id' } },
    dimensions: { resource: 'dimension-group-dimensions', on: { id: 'dimensionGroupId' }, description: 'Links to the dimensions of the group, in order.' },
    curves: { resource: 'dimension-curves', on: { id: 'dimensionGroupId' }, description: 'Every size curve of the group.' },
  },
  sorts: ['name'],
});
