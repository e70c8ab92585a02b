import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'measurement-tables',
  scope: 'brand',
  area: 'catalog',
  description: 'Size specifications of a product version.',
  joins: {
    version: { table: 'product_versions', on: { product_version_id: 'id' } },
  },
  fields: {
    id: { type: 'uuid' },
    productVersionId: { type: 'uuid', references: 'product-versions' },
    name: { type: 'string' },
    sizeSpecs: { type: 'json', description: 'Points of measure per size, as stored.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
    productVersionId: { field: 'productVersionId', match: 'exact' },
    productId: { column: 'version.product_id', type: 'uuid', match: 'exact', description: 'UUID of the product that owns the version.' },
  },
  includes: {
    productVersion: { resource: 'product-versions', on: { productVersionId: 'id' } },
    skus: { resource: 'measurement-table-skus', on: { id: 'measurementTableId' }, description: 'Links to the SKUs the table applies to.' },
  },
  sorts: ['name'],
  countable: ['productVersionId'],
});
