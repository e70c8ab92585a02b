import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'goods-receipts',
  scope: 'brand',
  area: 'logistics',
  description: 'The receipt of a shipment at a warehouse; its lines are what was counted in.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    locationId: { type: 'uuid', references: 'locations', description: 'The receiving warehouse.' },
    code: { type: 'string', description: 'Receipt number.' },
    status: { type: 'string', description: 'Such as pending, receiving, completed, discrepancy.' },
    receivedAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    locationId: { field: 'locationId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    location: { resource: 'locations', on: { locationId: 'id' } },
    lines: { resource: 'goods-receipt-lines', on: { id: 'goodsReceiptId' } },
  },
  sorts: ['code', 'receivedAt'],
  ranges: ['receivedAt'],
  countable: ['status', 'shipmentId', 'locationId'],
});
