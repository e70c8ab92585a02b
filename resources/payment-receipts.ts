import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'payment-receipts',
  scope: 'brand',
  area: 'finance',
  description: 'Proof that a payment reached the supplier, such as a bank confirmation.',
  fields: {
    id: { type: 'uuid' },
    paymentId: { type: 'uuid', references: 'payments' },
    documentId: { type: 'uuid', references: 'documents', description: 'The confirmation file, when uploaded.' },
    reference: { type: 'string', description: 'Bank or remittance reference.' },
    amount: { type: 'decimal', description: 'Amount the supplier received.' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    receivedAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    paymentId: { field: 'paymentId', match: 'exact' },
    documentId: { field: 'documentId', match: 'exact' },
    reference: { field: 'reference', match: 'exact' },
    search: { fields: ['reference'], match: 'contains-ci' },
  },
  includes: {
    payment: { resource: 'payments', on: { paymentId: 'id' } },
    document: { resource: 'documents', on: { documentId: 'id' } },
  },
  sorts: ['reference', 'receivedAt'],
  ranges: ['receivedAt'],
  countable: ['paymentId', 'documentId'],
});
