import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'skus',
  scope: 'brand',
  area: 'catalog',
  title: 'SKUs',
  description: 'A sellable unit: one colourway of a product in one size.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    productOptionId: { type: 'uuid', references: 'product-options', description: 'The colourway; null for a product without colourways.' },
    code: { type: 'string', description: 'SKU code.' },
    barcode: { type: 'string', description: 'EAN, UPC or other GTIN printed on the label.' },
    status: { type: 'string', description: 'Such as active, discontinued.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    productOptionId: { field: 'productOptionId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    barcode: { field: 'barcode', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['code', 'barcode'], match: 'contains-ci' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    dimensionValues: { resource: 'sku-dimension-values', on: { id: 'skuId' }, description: 'The size values (one per dimension) that define the SKU.' },
    inventory: { resource: 'inventory', on: { id: 'skuId' }, description: 'Stock of the SKU per location.' },
  },
  sorts: ['code'],
  countable: ['productId', 'productOptionId', 'status'],
});
