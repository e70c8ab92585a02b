import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-curve-axis-values',
  scope: 'brand',
  area: 'catalog',
  description: 'A dimension value on an axis of a size curve, in order.',
  fields: {
    id: { type: 'uuid' },
    dimensionCurveAxisId: { type: 'uuid', references: 'dimension-curve-axes' },
    dimensionValueId: { type: 'uuid', references: 'dimension-values' },
    sequence: { type: 'integer', description: 'Order along the axis.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionCurveAxisId: { field: 'dimensionCurveAxisId', match: 'exact' },
    dimensionValueId: { field: 'dimensionValueId', match: 'exact' },
  },
  includes: {
    dimensionCurveAxis: { resource: 'dimension-curve-axes', on: { dimensionCurveAxisId: 'id' } },
    dimensionValue: { resource: 'dimension-values', on: { dimensionValueId: 'id' } },
  },
  countable: ['dimensionCurveAxisId', 'dimensionValueId'],
});
