import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'sku-dimension-values',
  scope: 'brand',
  area: 'catalog',
  description: 'A size value that defines a SKU, one per dimension (such as size M and inseam 32).',
  fields: {
    id: { type: 'uuid' },
    skuId: { type: 'uuid', references: 'skus' },
    dimensionValueId: { type: 'uuid', references: 'dimension-values' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    skuId: { field: 'skuId', match: 'exact' },
    dimensionValueId: { field: 'dimensionValueId', match: 'exact' },
  },
  includes: {
    sku: { resource: 'skus', on: { skuId: 'id' } },
    dimensionValue: { resource: 'dimension-values', on: { dimensionValueId: 'id' } },
  },
  countable: ['skuId', 'dimensionValueId'],
});
