import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'production-runs',
  scope: 'brand',
  area: 'orders',
  description: 'A batch of production at a factory for a purchase order.',
  fields: {
    id: { type: 'uuid' },
    orderId: { type: 'uuid', references: 'orders' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    locationId: { type: 'uuid', references: 'locations', description: 'The factory.' },
    code: { type: 'string' },
    status: { type: 'string', description: 'Such as planned, in_progress, completed, cancelled.' },
    plannedStartOn: { type: 'date' },
    plannedEndOn: { type: 'date' },
    actualStartOn: { type: 'date' },
    actualEndOn: { type: 'date' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    orderId: { field: 'orderId', match: 'exact' },
    supplierId: { field: 'supplierId', match: 'exact' },
    locationId: { field: 'locationId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    order: { resource: 'orders', on: { orderId: 'id' } },
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    location: { resource: 'locations', on: { locationId: 'id' } },
    items: { resource: 'production-run-items', on: { id: 'productionRunId' } },
  },
  sorts: ['code', 'plannedStartOn', 'plannedEndOn', 'actualStartOn', 'actualEndOn'],
  ranges: ['plannedStartOn', 'plannedEndOn', 'actualStartOn', 'actualEndOn'],
  countable: ['status', 'orderId', 'supplierId', 'locationId'],
});
