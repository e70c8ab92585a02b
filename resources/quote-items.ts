import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'quote-items',
  scope: 'brand',
  area: 'sourcing',
  description: 'A priced line of a quote, usually one colourway.',
  fields: {
    id: { type: 'uuid' },
    quoteId: { type: 'uuid', references: 'quotes' },
    quoteRevisionId: { type: 'uuid', references: 'quote-revisions', description: 'The revision that priced the line.' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    description: { type: 'string' },
    quantity: { type: 'integer', description: 'Quantity the price is quoted for.' },
    unitPrice: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    leadTimeDays: { type: 'integer', description: 'Production lead time, in days.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    quoteId: { field: 'quoteId', match: 'exact' },
    quoteRevisionId: { field: 'quoteRevisionId', match: 'exact' },
    productOptionId: { field: 'productOptionId', match: 'exact' },
  },
  includes: {
    quote: { resource: 'quotes', on: { quoteId: 'id' } },
    quoteRevision: { resource: 'quote-revisions', on: { quoteRevisionId: 'id' } },
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    priceBands: { resource: 'quote-price-bands', on: { id: 'quoteItemId' } },
  },
  sorts: ['quantity', 'unitPrice'],
  ranges: ['quantity', 'unitPrice'],
  countable: ['quoteId', 'quoteRevisionId', 'productOptionId'],
});
