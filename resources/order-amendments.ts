import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'order-amendments',
  scope: 'brand',
  area: 'orders',
  description: 'A change to a purchase order after it was issued.',
  fields: {
    id: { type: 'uuid' },
    orderId: { type: 'uuid', references: 'orders' },
    orderItemId: { type: 'uuid', references: 'order-items', description: 'The line changed; null for a change to the whole order.' },
    amendmentNumber: { type: 'integer', description: 'Counts up from 1 per order.' },
    type: { type: 'string', description: 'Such as quantity, price, date, cancel.' },
    status: { type: 'string', description: 'Such as proposed, accepted, rejected.' },
    reason: { type: 'string' },
    changes: { type: 'json', description: 'Old and new values per changed field, as stored.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    orderId: { field: 'orderId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    order: { resource: 'orders', on: { orderId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
  },
  sorts: ['amendmentNumber'],
  countable: ['status', 'orderId', 'orderItemId', 'type'],
});
