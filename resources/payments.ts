import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'payments',
  scope: 'brand',
  area: 'finance',
  description: 'A payment made to a supplier.',
  fields: {
    id: { type: 'uuid' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    paymentAgreementId: { type: 'uuid', references: 'payment-agreements', description: 'The agreement the payment falls under, if any.' },
    code: { type: 'string', description: 'Payment reference.' },
    status: { type: 'string', description: 'Such as scheduled, sent, completed, failed, cancelled.' },
    method: { type: 'string', description: 'Such as wire, letter_of_credit, card.' },
    amount: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    paidAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    supplierId: { field: 'supplierId', match: 'exact' },
    paymentAgreementId: { field: 'paymentAgreementId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    method: { field: 'method', match: 'exact' },
    currency: { field: 'currency', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    paymentAgreement: { resource: 'payment-agreements', on: { paymentAgreementId: 'id' } },
    settlements: { resource: 'payment-settlements', on: { id: 'paymentId' } },
    receipts: { resource: 'payment-receipts', on: { id: 'paymentId' } },
  },
  sorts: ['code', 'amount', 'paidAt'],
  ranges: ['amount', 'paidAt'],
  countable: ['status', 'supplierId', 'paymentAgreementId', 'method', 'currency'],
});
