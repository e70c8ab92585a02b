import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'legs',
  scope: 'brand',
  description: 'One stage of a shipment\'s journey, such as truck to port, ocean, or final delivery.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    sequence: { type: 'integer', description: 'Order of the leg within the shipment, from 1.' },
    mode: { type: 'string', description: 'Such as air, ocean, road, express.' },
    courierId: { type: 'uuid', references: 'couriers' },
    originLocationId: { type: 'uuid', references: 'locations' },
    destinationLocationId: { type: 'uuid', references: 'locations' },
    vesselOrFlight: { type: 'string', description: 'Vessel name and voyage, or flight number.' },
    status: { type: 'string', description: 'Such as planned, departed, arrived.' },
    departedAt: { type: 'timestamp' },
    arrivedAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    mode: { field: 'mode', match: 'exact' },
    courierId: { field: 'courierId', match: 'exact' },
    originLocationId: { field: 'originLocationId', match: 'exact' },
    destinationLocationId: { field: 'destinationLocationId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['vesselOrFlight'], match: 'contains-ci' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    courier: { resource: 'couriers', on: { courierId: 'id' } },
    originLocation: { resource: 'locations', on: { originLocationId: 'id' } },
    destinationLocation: { resource: 'locations', on: { destinationLocationId: 'id' } },
    items: { resource: 'leg-items', on: { id: 'legId' } },
  },
});
