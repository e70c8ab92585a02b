import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'inventory',
  scope: 'brand',
  area: 'logistics',
  description: 'Stock of one SKU at one location.',
  fields: {
    id: { type: 'uuid' },
    locationId: { type: 'uuid', references: 'locations' },
    skuId: { type: 'uuid', references: 'skus' },
    quantityOnHand: { type: 'integer', description: 'Units physically at the location.' },
    quantityReserved: { type: 'integer', description: 'Units held for orders.' },
    quantityAvailable: { type: 'integer', description: 'Units on hand and not reserved.' },
    countedAt: { type: 'timestamp', description: 'When the quantities were last counted or synchronised.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    locationId: { field: 'locationId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    location: { resource: 'locations', on: { locationId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  sorts: ['quantityOnHand', 'quantityAvailable', 'countedAt'],
  ranges: ['quantityOnHand', 'quantityAvailable', 'countedAt'],
  countable: ['locationId', 'skuId'],
});
