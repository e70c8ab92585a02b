import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'colors',
  scope: 'brand',
  area: 'catalog',
  description: 'A colour of the brand\'s palette, used by colourways and material variants.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    hexCode: { type: 'string', description: 'Screen colour, such as #1F2A44.' },
    pantoneCode: { type: 'string', description: 'Pantone reference, such as 19-4052 TCX.' },
    status: { type: 'string', description: 'Such as active, retired.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    pantoneCode: { field: 'pantoneCode', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    productOptions: { resource: 'product-options', on: { id: 'colorId' } },
    materialVariants: { resource: 'material-variants', on: { id: 'colorId' } },
  },
  sorts: ['code', 'name'],
  countable: ['status'],
});
