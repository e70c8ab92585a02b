import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'bom-skus',
  scope: 'brand',
  area: 'catalog',
  description: 'A SKU that a BOM is limited to (a BOM with none applies to every SKU of its product).',
  fields: {
    id: { type: 'uuid' },
    bomId: { type: 'uuid', references: 'boms' },
    skuId: { type: 'uuid', references: 'skus' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    bomId: { field: 'bomId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    bom: { resource: 'boms', on: { bomId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  countable: ['bomId', 'skuId'],
});
