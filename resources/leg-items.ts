import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'leg-items',
  scope: 'brand',
  area: 'logistics',
  description: 'The part of a shipment item carried on one leg.',
  fields: {
    id: { type: 'uuid' },
    legId: { type: 'uuid', references: 'legs' },
    shipmentItemId: { type: 'uuid', references: 'shipment-items' },
    quantity: { type: 'integer' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    legId: { field: 'legId', match: 'exact' },
    shipmentItemId: { field: 'shipmentItemId', match: 'exact' },
  },
  includes: {
    leg: { resource: 'legs', on: { legId: 'id' } },
    shipmentItem: { resource: 'shipment-items', on: { shipmentItemId: 'id' } },
  },
  countable: ['legId', 'shipmentItemId'],
});
