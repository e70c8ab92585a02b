import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'boms',
  scope: 'brand',
  area: 'catalog',
  description: 'Bill of materials of a product: the materials and quantities that make one unit.',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    productVersionId: { type: 'uuid', references: 'product-versions', description: 'The specification revision the BOM was built for; null when not tied to one.' },
    code: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', description: 'Such as draft, approved, archived.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    productVersionId: { field: 'productVersionId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    productVersion: { resource: 'product-versions', on: { productVersionId: 'id' } },
    sections: { resource: 'bom-sections', on: { id: 'bomId' } },
    components: { resource: 'bom-components', on: { id: 'bomId' } },
    skus: { resource: 'bom-skus', on: { id: 'bomId' }, description: 'Links to the SKUs the BOM is limited to; none when it applies to every SKU of the product.' },
  },
  sorts: ['code', 'name'],
  countable: ['productId', 'productVersionId', 'status'],
});
