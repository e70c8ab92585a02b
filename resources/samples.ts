import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'samples',
  scope: 'brand',
  area: 'sourcing',
  description: 'A physical sample of a product requested from a supplier (proto, fit, salesman, PP, TOP).',
  fields: {
    id: { type: 'uuid' },
    productId: { type: 'uuid', references: 'products' },
    productOptionId: { type: 'uuid', references: 'product-options' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    code: { type: 'string' },
    type: { type: 'string', description: 'Such as proto, fit, salesman, pp, top.' },
    status: { type: 'string', description: 'Such as requested, in_progress, approved, rejected, cancelled.' },
    requestedOn: { type: 'date' },
    dueOn: { type: 'date' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    productId: { field: 'productId', match: 'exact' },
    productOptionId: { field: 'productOptionId', match: 'exact' },
    supplierId: { field: 'supplierId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    product: { resource: 'products', on: { productId: 'id' } },
    productOption: { resource: 'product-options', on: { productOptionId: 'id' } },
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    rounds: { resource: 'sample-rounds', on: { id: 'sampleId' } },
  },
  sorts: ['code', 'requestedOn', 'dueOn'],
  ranges: ['requestedOn', 'dueOn'],
  countable: ['status', 'productId', 'productOptionId', 'supplierId', 'type'],
});
