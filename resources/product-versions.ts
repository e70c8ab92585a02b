import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-versions',
  scope: 'brand',
  area: 'catalog',
  description: 'A revision of a product\'s specification (tech pack); measurement tables hang off it.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    versionNumber: { type: 'integer', description: 'Counts up from 1 per product.' },
    name: { type: 'string' },
    status: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    measurementTables: { resource: 'measurement-tables', on: { id: 'productVersionId' } },
    boms: { resource: 'boms', on: { id: 'productVersionId' } },
  },
  sorts: ['versionNumber', 'name'],
  countable: ['productId', 'status'],
});
