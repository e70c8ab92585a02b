import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'material-variants',
  scope: 'brand',
  area: 'catalog',
  description: 'A material in one colour or finish.',
  fields: {
    id: { type: 'uuid' },
    materialId: { type: 'uuid', references: 'materials' },
    colorId: { type: 'uuid', references: 'colors' },
    code: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Such as active, inactive.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    materialId: { field: 'materialId', match: 'exact' },
    colorId: { field: 'colorId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    material: { resource: 'materials', on: { materialId: 'id' } },
    color: { resource: 'colors', on: { colorId: 'id' } },
  },
  sorts: ['code', 'name'],
  countable: ['materialId', 'colorId', 'status'],
});
