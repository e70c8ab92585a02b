import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-curve-cells',
  scope: 'brand',
  area: 'catalog',
  description: 'One cell of a size curve: the units of one size (or size pair) in the curve.',
  fields: {
    id: { type: 'uuid' },
    dimensionCurveId: { type: 'uuid', references: 'dimension-curves' },
    primaryAxisValueId: { type: 'uuid', references: 'dimension-curve-axis-values', description: 'The value on the primary axis.' },
    secondaryAxisValueId: { type: 'uuid', references: 'dimension-curve-axis-values', description: 'The value on the secondary axis; null on a one-axis curve.' },
    quantity: { type: 'integer', description: 'Units of this size in the curve.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionCurveId: { field: 'dimensionCurveId', match: 'exact' },
    primaryAxisValueId: { field: 'primaryAxisValueId', match: 'exact' },
    secondaryAxisValueId: { field: 'secondaryAxisValueId', match: 'exact' },
  },
  includes: {
    dimensionCurve: { resource: 'dimension-curves', on: { dimensionCurveId: 'id' } },
    primaryAxisValue: { resource: 'dimension-curve-axis-values', on: { primaryAxisValueId: 'id' } },
    secondaryAxisValue: { resource: 'dimension-curve-axis-values', on: { secondaryAxisValueId: 'id' } },
  },
  sorts: ['quantity'],
  ranges: ['quantity'],
  countable: ['dimensionCurveId', 'primaryAxisValueId', 'secondaryAxisValueId'],
});
