import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'payment-milestones',
  scope: 'brand',
  area: 'finance',
  description: 'One instalment of a payment agreement, such as a deposit or the balance.',
  fields: {
    id: { type: 'uuid' },
    paymentAgreementId: { type: 'uuid', references: 'payment-agreements' },
    sequence: { type: 'integer', description: 'Order within the agreement, from 1.' },
    name: { type: 'string' },
    percent: { type: 'decimal', description: 'Share of the agreement total, in percent.' },
    amount: { type: 'decimal' },
    currency: { type: 'string', description: 'ISO 4217 code, such as EUR.' },
    dueOn: { type: 'date' },
    trigger: { type: 'string', description: 'The event that makes it due, such as on_order, before_shipment, after_arrival.' },
    status: { type: 'string', description: 'Such as pending, due, paid.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    paymentAgreementId: { field: 'paymentAgreementId', match: 'exact' },
    trigger: { field: 'trigger', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    paymentAgreement: { resource: 'payment-agreements', on: { paymentAgreementId: 'id' } },
    settlements: { resource: 'payment-settlements', on: { id: 'paymentMilestoneId' } },
  },
  sorts: ['sequence', 'amount', 'dueOn'],
  ranges: ['amount', 'dueOn'],
  countable: ['status', 'paymentAgreementId', 'trigger'],
});
