import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'shipment-cartons',
  scope: 'brand',
  area: 'logistics',
  description: 'A physical carton in a shipment.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    cartonSizeId: { type: 'uuid', references: 'carton-sizes' },
    cartonNumber: { type: 'integer', description: 'Number of the carton within the shipment, from 1.' },
    sscc: { type: 'string', description: 'Serial Shipping Container Code (18 digits) on the carton label.' },
    grossWeightKg: { type: 'decimal', description: 'Kilograms, with packaging.' },
    netWeightKg: { type: 'decimal', description: 'Kilograms, goods only.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    cartonSizeId: { field: 'cartonSizeId', match: 'exact' },
    sscc: { field: 'sscc', match: 'exact' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    cartonSize: { resource: 'carton-sizes', on: { cartonSizeId: 'id' } },
    items: { resource: 'shipment-carton-items', on: { id: 'shipmentCartonId' } },
  },
  sorts: ['cartonNumber', 'sscc', 'grossWeightKg'],
  ranges: ['grossWeightKg'],
  countable: ['shipmentId', 'cartonSizeId'],
});
