import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-collections',
  scope: 'brand',
  area: 'catalog',
  description: 'Places a product in a collection.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    collectionId: { type: 'uuid', references: 'collections' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    collectionId: { field: 'collectionId', match: 'exact' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    collection: { resource: 'collections', on: { collectionId: 'id' } },
  },
  countable: ['productId', 'collectionId'],
});
