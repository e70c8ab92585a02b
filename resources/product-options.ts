import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-options',
  scope: 'brand',
  area: 'catalog',
  description: 'A colourway of a product: the product in one colour. Its sizes are SKUs.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    colorId: { type: 'uuid', references: 'colors' },
    code: { type: 'string', description: 'Colourway code, unique within the product.' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Such as draft, active, discontinued.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    colorId: { field: 'colorId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    color: { resource: 'colors', on: { colorId: 'id' } },
    skus: { resource: 'skus', on: { id: 'productOptionId' }, description: 'The SKUs (sizes) of the colourway.' },
    values: { resource: 'product-option-values', on: { id: 'productOptionId' }, description: 'Links to the option values that describe the colourway.' },
    dimensionValues: { resource: 'product-option-dimension-values', on: { id: 'productOptionId' }, description: 'The sizes the colourway comes in.' },
    prices: { resource: 'product-option-prices', on: { id: 'productOptionId' } },
    collections: { resource: 'product-option-collections', on: { id: 'productOptionId' } },
  },
  sorts: ['code', 'name'],
  countable: ['productId', 'colorId', 'status'],
});
