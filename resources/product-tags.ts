import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-tags',
  scope: 'brand',
  area: 'catalog',
  description: 'A tag put on a product.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    tagId: { type: 'uuid', references: 'tags' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    tagId: { field: 'tagId', match: 'exact' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    tag: { resource: 'tags', on: { tagId: 'id' } },
  },
  countable: ['productId', 'tagId'],
});
