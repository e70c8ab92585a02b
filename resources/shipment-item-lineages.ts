import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-item-lineages',
  scope: 'brand',
  area: 'logistics',
  description: 'Where a shipment item\'s units came from: order line, booking, packing list and any earlier shipment item.',
  fields: {
    id: { type: 'uuid' },
    shipmentItemId: { type: 'uuid', references: 'shipment-items' },
    sourceShipmentItemId: { type: 'uuid', references: 'shipment-items', description: 'The shipment item these units were split or merged from; null at the origin.' },
    orderItemId: { type: 'uuid', references: 'order-items' },
    bookingItemId: { type: 'uuid', references: 'booking-items' },
    packingListLineId: { type: 'uuid', references: 'packing-list-lines' },
    quantity: { type: 'integer' },
    outcome: { type: 'string', description: 'Such as matched, split, merged, short, over.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentItemId: { field: 'shipmentItemId', match: 'exact' },
    sourceShipmentItemId: { field: 'sourceShipmentItemId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    bookingItemId: { field: 'bookingItemId', match: 'exact' },
    packingListLineId: { field: 'packingListLineId', match: 'exact' },
    outcome: { field: 'outcome', match: 'exact' },
  },
  includes: {
    shipmentItem: { resource: 'shipment-items', on: { shipmentItemId: 'id' } },
    sourceShipmentItem: { resource: 'shipment-items', on: { sourceShipmentItemId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    bookingItem: { resource: 'booking-items', on: { bookingItemId: 'id' } },
    packingListLine: { resource: 'packing-list-lines', on: { packingListLineId: 'id' } },
  },
  countable: ['shipmentItemId', 'sourceShipmentItemId', 'orderItemId', 'bookingItemId', 'packingListLineId', 'outcome'],
});
