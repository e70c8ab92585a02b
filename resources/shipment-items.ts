import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-items',
  scope: 'brand',
  area: 'logistics',
  description: 'A line of a shipment: a SKU and quantity from an order item.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid' },
    orderItemId: { type: 'uuid' },
    sku: { type: 'string' },
    quantity: { type: 'integer' },
    receivedQuantity: { type: 'integer' },
    purchaseOrderNumber: { type: 'string' },
    externalShipmentItemId: { type: 'uuid' },
    lineNumber: { type: 'integer' },
    lineageOutcome: { type: 'string' },
    reconciledAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    orderItemId: { field: 'orderItemId', match: 'exact' },
    sku: { field: 'sku', match: 'exact' },
    purchaseOrderNumber: { field: 'purchaseOrderNumber', match: 'exact' },
    lineageOutcome: { field: 'lineageOutcome', match: 'exact' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    orderItem: { resource: 'order-items', on: { orderItemId: 'id' } },
    cartonItems: { resource: 'shipment-carton-items', on: { id: 'shipmentItemId' }, description: 'How the item is spread over cartons.' },
    lineages: { resource: 'shipment-item-lineages', on: { id: 'shipmentItemId' }, description: 'Where the item\'s units came from.' },
  },
  sorts: ['lineNumber', 'sku', 'purchaseOrderNumber', 'quantity', 'reconciledAt'],
  ranges: ['quantity', 'reconciledAt'],
  countable: ['shipmentId', 'orderItemId', 'lineageOutcome'],
});
