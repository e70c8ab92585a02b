import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Parent products: the spec's "product". Options and SKUs are families of their own. */
export default defineResource({
  path: 'products',
  scope: 'brand',
  area: 'catalog',
  title: 'Parent Products',
  description: 'A product of the catalog (a style), before colourways and sizes.',
  joins: {
    category: { table: 'categories', on: { category_id: 'id' } },
  },
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', description: 'Product code.' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Product workflow status.' },
    category: { type: 'string', from: 'category.name', description: 'Label of the category.' },
    categoryId: { type: 'uuid', references: 'categories', hidden: true },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    category: { field: 'categoryId', match: 'exact', description: 'UUID of a category from the categories collection.' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    versions: { resource: 'product-versions', on: { id: 'productId' } },
    relations: { resource: 'product-relations', on: { id: 'productId' } },
    options: { resource: 'product-options', on: { id: 'productId' }, description: 'The colourways of the product.' },
    skus: { resource: 'skus', on: { id: 'productId' } },
    boms: { resource: 'boms', on: { id: 'productId' } },
    collections: { resource: 'product-collections', on: { id: 'productId' }, description: 'Links to the collections the product is in.' },
    tags: { resource: 'product-tags', on: { id: 'productId' }, description: 'Links to the tags on the product.' },
    launchWindows: { resource: 'product-launch-windows', on: { id: 'productId' }, description: 'Links to the launch windows the product is scheduled in.' },
  },
  sorts: ['code', 'name'],
  countable: ['status'],
});
