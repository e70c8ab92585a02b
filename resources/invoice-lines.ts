import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'invoice-lines',
  scope: 'brand',
  area: 'finance',
  description: 'A line of an invoice.',
  fields: {
    id: { type: 'uuid' },
    invoiceId: { type: 'uuid', references: 'invoices' },
    orderItemId: { type: 'uuid', references: 'order-items', description: 'The order line invoiced, if any.' },
    skuId: { type: 'uuid', references: 'skus', description: 'The SKU invoiced, if any.' },
    description: { type: 'string' },
    quantity: { type: 'integer' },
    unitPrice: { type: 'decimal' },
    amount: { type: 'decimal', description: 'Line total, in currency.' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    invoiceId: { field: 'invoiceId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    invoice: { resource: 'invoices', on: { invoiceId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  sorts: ['quantity', 'unitPrice', 'amount'],
  ranges: ['quantity', 'unitPrice', 'amount'],
  countable: ['invoiceId', 'orderItemId', 'skuId'],
});
