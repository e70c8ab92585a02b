import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'order-shipments',
  scope: 'brand',
  area: 'logistics',
  description: 'A link between an order and a shipment that carries some of it.',
  fields: {
    id: { type: 'uuid' },
    orderId: { type: 'uuid' },
    shipmentId: { type: 'uuid' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    orderId: { field: 'orderId', match: 'exact' },
    shipmentId: { field: 'shipmentId', match: 'exact' },
  },
  includes: {
    order: { resource: 'orders', on: { orderId: 'id' } },
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
  },
  countable: ['orderId', 'shipmentId'],
});
