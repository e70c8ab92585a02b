import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'payment-settlements',
  scope: 'brand',
  area: 'finance',
  description: 'The part of a payment applied to one invoice (and, optionally, one milestone).',
  fields: {
    id: { type: 'uuid' },
    paymentId: { type: 'uuid', references: 'payments' },
    invoiceId: { type: 'uuid', references: 'invoices' },
    paymentMilestoneId: { type: 'uuid', references: 'payment-milestones', description: 'The milestone the amount settles, if any.' },
    amount: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    paymentId: { field: 'paymentId', match: 'exact' },
    invoiceId: { field: 'invoiceId', match: 'exact' },
    paymentMilestoneId: { field: 'paymentMilestoneId', match: 'exact' },
  },
  includes: {
    payment: { resource: 'payments', on: { paymentId: 'id' } },
    invoice: { resource: 'invoices', on: { invoiceId: 'id' } },
    paymentMilestone: { resource: 'payment-milestones', on: { paymentMilestoneId: 'id' } },
  },
  countable: ['paymentId', 'invoiceId', 'paymentMilestoneId'],
});
