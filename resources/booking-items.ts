import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'booking-items',
  scope: 'brand',
  area: 'logistics',
  description: 'The goods of one order line on a booking.',
  fields: {
    id: { type: 'uuid' },
    bookingId: { type: 'uuid', references: 'bookings' },
    orderItemId: { type: 'uuid', references: 'order-items' },
    skuId: { type: 'uuid', references: 'skus' },
    quantity: { type: 'integer', description: 'Units booked.' },
    cartons: { type: 'integer', description: 'Cartons booked.' },
    volumeCbm: { type: 'decimal', description: 'Cubic metres.' },
    weightKg: { type: 'decimal', description: 'Kilograms, gross.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    bookingId: { field: 'bookingId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    booking: { resource: 'bookings', on: { bookingId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  sorts: ['quantity', 'volumeCbm', 'weightKg'],
  ranges: ['quantity', 'volumeCbm', 'weightKg'],
  countable: ['bookingId', 'orderItemId', 'skuId'],
});
