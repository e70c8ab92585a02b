import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimension-curves',
  scope: 'brand',
  area: 'catalog',
  description: 'A size curve: how many units of each size (or size pair) make up a buy or ratio pack.',
  fields: {
    id: { type: 'uuid' },
    dimensionGroupId: { type: 'uuid', references: 'dimension-groups' },
    code: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Such as draft, active, archived.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    dimensionGroupId: { field: 'dimensionGroupId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    dimensionGroup: { resource: 'dimension-groups', on: { dimensionGroupId: 'id' } },
    axes: { resource: 'dimension-curve-axes', on: { id: 'dimensionCurveId' } },
    cells: { resource: 'dimension-curve-cells', on: { id: 'dimensionCurveId' } },
  },
  sorts: ['code', 'name'],
  countable: ['dimensionGroupId', 'status'],
});
