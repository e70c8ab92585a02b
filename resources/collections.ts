import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'collections',
  scope: 'brand',
  area: 'catalog',
  description: 'A collection of the range, usually one per season or drop.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    season: { type: 'string', description: 'Season code, such as SS26 or FW26.' },
    status: { type: 'string', description: 'Such as planning, active, closed.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    season: { field: 'season', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    products: { resource: 'product-collections', on: { id: 'collectionId' }, description: 'Links to the products in the collection.' },
    productOptions: { resource: 'product-option-collections', on: { id: 'collectionId' }, description: 'Links to the colourways in the collection.' },
  },
  sorts: ['code', 'name'],
  countable: ['season', 'status'],
});
