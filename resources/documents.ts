import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'documents',
  scope: 'brand',
  area: 'documents',
  description: 'A file attached to a record, such as an invoice PDF, packing list or test report.',
  fields: {
    id: { type: 'uuid' },
    documentTypeId: { type: 'uuid', references: 'document-types' },
    entityType: { type: 'string', description: 'The kind of record the document belongs to, such as product, order, shipment, invoice, partner.' },
    entityId: { type: 'uuid', description: 'Id of that record.' },
    name: { type: 'string' },
    fileName: { type: 'string' },
    mimeType: { type: 'string', description: 'Such as application/pdf.' },
    sizeBytes: { type: 'integer' },
    url: { type: 'string', description: 'Where the file can be downloaded.' },
    uploadedByUserId: { type: 'uuid', description: 'The user who uploaded the file.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    documentTypeId: { field: 'documentTypeId', match: 'exact' },
    entityType: { field: 'entityType', match: 'exact' },
    entityId: { field: 'entityId', match: 'exact' },
    uploadedByUserId: { field: 'uploadedByUserId', match: 'exact' },
    search: { fields: ['name', 'fileName'], match: 'contains-ci' },
  },
  includes: {
    documentType: { resource: 'document-types', on: { documentTypeId: 'id' } },
  },
  sorts: ['name'],
  countable: ['documentTypeId', 'entityType'],
});
