import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'tags',
  scope: 'brand',
  area: 'catalog',
  description: 'A free label for grouping products.',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    code: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    products: { resource: 'product-tags', on: { id: 'tagId' }, description: 'Links to the tagged products.' },
  },
  sorts: ['code', 'name'],
});
