import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-carton-items',
  scope: 'brand',
  area: 'logistics',
  description: 'The units of one shipment item packed in one carton.',
  fields: {
    id: { type: 'uuid' },
    shipmentCartonId: { type: 'uuid', references: 'shipment-cartons' },
    shipmentItemId: { type: 'uuid', references: 'shipment-items' },
    skuId: { type: 'uuid', references: 'skus' },
    quantity: { type: 'integer' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentCartonId: { field: 'shipmentCartonId', match: 'exact' },
    shipmentItemId: { field: 'shipmentItemId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    shipmentCarton: { resource: 'shipment-cartons', on: { shipmentCartonId: 'id' } },
    shipmentItem: { resource: 'shipment-items', on: { shipmentItemId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  countable: ['shipmentCartonId', 'shipmentItemId', 'skuId'],
});
