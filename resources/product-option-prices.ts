import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'product-option-prices',
  scope: 'brand',
  area: 'catalog',
  description: 'A price of a product option: wholesale, retail or cost, per market, from a date.',
  fields: {
    id: { type: 'uuid' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    priceType: { type: 'string', description: 'Such as wholesale, retail, cost.' },
    amount: { type: 'decimal', description: 'Price of one unit, in currency.' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    countryId: { type: 'uuid', references: 'countries', description: 'The market the price applies to; null for every market.' },
    validFrom: { type: 'date', description: 'First day the price applies.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productOptionId: { field: 'productOptionId', match: 'exact' },
    priceType: { field: 'priceType', match: 'exact' },
    currency: { field: 'currency', match: 'exact' },
    countryId: { field: 'countryId', match: 'exact' },
  },
  includes: {
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    country: { resource: 'countries', on: { countryId: 'id' } },
  },
  sorts: ['amount', 'validFrom'],
  ranges: ['amount', 'validFrom'],
  countable: ['productOptionId', 'priceType', 'currency', 'countryId'],
});
