import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-relations',
  scope: 'brand',
  area: 'catalog',
  description: 'A link between two products, such as a matching piece or a replacement.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    relatedProductId: { type: 'uuid', references: 'products' },
    relationType: { type: 'string' },
    createdByUserId: { type: 'uuid' },
    createdAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    relatedProductId: { field: 'relatedProductId', match: 'exact' },
    productId: { field: 'productId', match: 'exact' },
    relationType: { field: 'relationType', match: 'exact' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    relatedProduct: { resource: 'products', on: { relatedProductId: 'id' } },
  },
  countable: ['productId', 'relatedProductId', 'relationType'],
});
