import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'packing-templates',
  scope: 'brand',
  area: 'logistics',
  description: 'How goods are packed: the carton used, units per carton and mixing rules.',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    cartonSizeId: { type: 'uuid', references: 'carton-sizes' },
    unitsPerCarton: { type: 'integer' },
    rules: { type: 'json', description: 'Packing rules such as size ratios and whether sizes may be mixed, as stored.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    cartonSizeId: { field: 'cartonSizeId', match: 'exact' },
    search: { fields: ['name'], match: 'contains-ci' },
  },
  includes: {
    cartonSize: { resource: 'carton-sizes', on: { cartonSizeId: 'id' } },
  },
  sorts: ['name'],
  countable: ['cartonSizeId'],
});
