import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'quote-price-bands',
  scope: 'brand',
  area: 'sourcing',
  description: 'A volume price break of a quote item.',
  fields: {
    id: { type: 'uuid' },
    quoteItemId: { type: 'uuid', references: 'quote-items' },
    minQuantity: { type: 'integer', description: 'Smallest order quantity of the band.' },
    maxQuantity: { type: 'integer', description: 'Largest order quantity of the band; null for no upper bound.' },
    unitPrice: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    quoteItemId: { field: 'quoteItemId', match: 'exact' },
  },
  includes: {
    quoteItem: { resource: 'quote-items', on: { quoteItemId: 'id' } },
  },
  sorts: ['minQuantity', 'unitPrice'],
  ranges: ['minQuantity', 'unitPrice'],
  countable: ['quoteItemId'],
});
