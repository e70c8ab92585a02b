import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-option-values',
  scope: 'brand',
  area: 'catalog',
  description: 'Links a product option to an option value that describes it (its colour, fit or finish).',
  fields: {
    id: { type: 'uuid' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    optionValueId: { type: 'uuid', references: 'option-values' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productOptionId: { field: 'productOptionId', match: 'exact' },
    optionValueId: { field: 'optionValueId', match: 'exact' },
  },
  includes: {
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    optionValue: { resource: 'option-values', on: { optionValueId: 'id' } },
  },
  countable: ['productOptionId', 'optionValueId'],
});
