import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'bookings',
  scope: 'brand',
  description: 'A booking of cargo space with a forwarder.',
  fields: {
    id: { type: 'uuid' },
    partnerId: { type: 'uuid', references: 'partners', description: 'The forwarder.' },
    courierId: { type: 'uuid', references: 'couriers', description: 'The carrier booked.' },
    code: { type: 'string', description: 'Booking reference.' },
    status: { type: 'string', description: 'Such as requested, confirmed, cancelled.' },
    mode: { type: 'string', description: 'Such as air, ocean, road, express.' },
    originLocationId: { type: 'uuid', references: 'locations' },
    destinationLocationId: { type: 'uuid', references: 'locations' },
    requestedShipOn: { type: 'date' },
    confirmedAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    partnerId: { field: 'partnerId', match: 'exact' },
    courierId: { field: 'courierId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    mode: { field: 'mode', match: 'exact' },
    originLocationId: { field: 'originLocationId', match: 'exact' },
    destinationLocationId: { field: 'destinationLocationId', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    partner: { resource: 'partners', on: { partnerId: 'id' } },
    courier: { resource: 'couriers', on: { courierId: 'id' } },
    originLocation: { resource: 'locations', on: { originLocationId: 'id' } },
    destinationLocation: { resource: 'locations', on: { destinationLocationId: 'id' } },
    items: { resource: 'booking-items', on: { id: 'bookingId' } },
    shipments: { resource: 'shipment-bookings', on: { id: 'bookingId' }, description: 'Links to the shipments that fulfil the booking.' },
  },
});
