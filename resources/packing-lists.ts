import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'packing-lists',
  scope: 'brand',
  area: 'logistics',
  description: 'A supplier\'s packing list for a shipment: what is in which carton.',
  fields: {
    id: { type: 'uuid' },
    shipmentId: { type: 'uuid', references: 'shipments' },
    supplierId: { type: 'uuid', references: 'suppliers' },
    code: { type: 'string', description: 'Packing list number.' },
    status: { type: 'string', description: 'Such as draft, issued, confirmed.' },
    issuedOn: { type: 'date' },
    totalCartons: { type: 'integer' },
    totalUnits: { type: 'integer' },
    documentId: { type: 'uuid', references: 'documents', description: 'The packing list file, when uploaded.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    shipmentId: { field: 'shipmentId', match: 'exact' },
    supplierId: { field: 'supplierId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    documentId: { field: 'documentId', match: 'exact' },
    search: { fields: ['code'], match: 'contains-ci' },
  },
  includes: {
    shipment: { resource: 'shipments', on: { shipmentId: 'id' } },
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    document: { resource: 'documents', on: { documentId: 'id' } },
    lines: { resource: 'packing-list-lines', on: { id: 'packingListId' } },
  },
  sorts: ['code', 'issuedOn', 'totalCartons', 'totalUnits'],
  ranges: ['issuedOn', 'totalCartons', 'totalUnits'],
  countable: ['status', 'shipmentId', 'supplierId', 'documentId'],
});
