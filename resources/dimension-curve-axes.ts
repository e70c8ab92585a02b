import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-curve-axes',
  scope: 'brand',
  area: 'catalog',
  description: 'One axis of a size curve, along one dimension (a curve has one or two).',
  fields: {
    id: { type: 'uuid' },
    dimensionCurveId: { type: 'uuid', references: 'dimension-curves' },
    dimensionId: { type: 'uuid', references: 'dimensions' },
    sequence: { type: 'integer', description: '1 for the primary axis, 2 for the secondary.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionCurveId: { field: 'dimensionCurveId', match: 'exact' },
    dimensionId: { field: 'dimensionId', match: 'exact' },
  },
  includes: {
    dimensionCurve: { resource: 'dimension-curves', on: { dimensionCurveId: 'id' } },
    dimension: { resource: 'dimensions', on: { dimensionId: 'id' } },
    values: { resource: 'dimension-curve-axis-values', on: { id: 'dimensionCurveAxisId' } },
  },
  countable: ['dimensionCurveId', 'dimensionId'],
});
