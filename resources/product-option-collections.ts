import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-option-collections',
  scope: 'brand',
  area: 'catalog',
  description: 'Places a product option (one colourway) in a collection.',
  fields: {
    id: { type: 'uuid' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    collectionId: { type: 'uuid', references: 'collections' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productOptionId: { field: 'productOptionId', match: 'exact' },
    collectionId: { field: 'collectionId', match: 'exact' },
  },
  includes: {
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    collection: { resource: 'collections', on: { collectionId: 'id' } },
  },
  countable: ['productOptionId', 'collectionId'],
});
