import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'payment-agreements',
  scope: 'brand',
  area: 'finance',
  description: 'How a purchase order is to be paid: its total, terms and milestones.',
  fields: {
    id: { type: 'uuid' },
    orderId: { type: 'uuid', references: 'orders' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    paymentTermId: { type: 'uuid', references: 'payment-terms' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    totalAmount: { type: 'decimal' },
    status: { type: 'string', description: 'Such as draft, active, completed, cancelled.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    orderId: { field: 'orderId', match: 'exact' },
    supplierId: { field: 'supplierId', match: 'exact' },
    paymentTermId: { field: 'paymentTermId', match: 'exact' },
    currency: { field: 'currency', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    order: { resource: 'orders', on: { orderId: 'id' } },
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    paymentTerm: { resource: 'payment-terms', on: { paymentTermId: 'id' } },
    milestones: { resource: 'payment-milestones', on: { id: 'paymentAgreementId' } },
  },
  sorts: ['totalAmount'],
  ranges: ['totalAmount'],
  countable: ['status', 'orderId', 'supplierId', 'paymentTermId', 'currency'],
});
