import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'quotes',
  scope: 'brand',
  area: 'sourcing',
  description: 'A supplier\'s quotation (RFQ) for a product.',
  fields: {
    id: { type: 'uuid' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    productId: { type: 'uuid', references: 'products' },
    code: { type: 'string', description: 'Quote number.' },
    status: { type: 'string', description: 'Such as requested, submitted, accepted, rejected, expired.' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    incoterm: { type: 'string', description: 'Incoterms rule, such as FOB or EXW.' },
    validUntil: { type: 'date', description: 'Last day the prices hold.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    supplierId: { field: 'supplierId', match: 'exact' },
    productId: { field: 'productId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    currency: { field: 'currency', match: 'exact' },
    incoterm: { field: 'incoterm', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    product: { resource: 'products', on: { productId: 'id' } },
    revisions: { resource: 'quote-revisions', on: { id: 'quoteId' } },
    items: { resource: 'quote-items', on: { id: 'quoteId' } },
    notes: { resource: 'quote-notes', on: { id: 'quoteId' } },
  },
  sorts: ['code', 'validUntil'],
  ranges: ['validUntil'],
  countable: ['status', 'supplierId', 'productId', 'currency', 'incoterm'],
});
