import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-option-dimension-values',
  scope: 'brand',
  area: 'catalog',
  description: 'A size (dimension value) that a product option comes in.',
  fields: {
    id: { type: 'uuid' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    dimensionValueId: { type: 'uuid', references: 'dimension-values' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productOptionId: { field: 'productOptionId', match: 'exact' },
    dimensionValueId: { field: 'dimensionValueId', match: 'exact' },
  },
  includes: {
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    dimensionValue: { resource: 'dimension-values', on: { dimensionValueId: 'id' } },
  },
  countable: ['productOptionId', 'dimensionValueId'],
});
