import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-bookings',
  scope: 'brand',
  area: 'logistics',
  description: 'Links a shipment to a forwarder booking it fulfils.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    bookingId: { type: 'uuid', references: 'bookings' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    bookingId: { field: 'bookingId', match: 'exact' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    booking: { resource: 'bookings', on: { bookingId: 'id' } },
  },
  countable: ['shipmentId', 'bookingId'],
});
