import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'notes',
  scope: 'brand',
  area: 'documents',
  description: 'Rich-text notes attached to a product, construction, order, partner, RFQ or proto.',
  fields: {
    id: { type: 'uuid' },
    entityType: { type: 'enum', values: ['product', 'product_construction', 'order', 'partner', 'rfq', 'proto'] },
    entityId: { type: 'uuid', description: 'Id of the entity the note belongs to.' },
    content: { type: 'json', description: 'The note document, as stored.' },
    lastEditedById: { type: 'uuid' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    entityId: { field: 'entityId', match: 'exact' },
    entityType: { field: 'entityType', match: 'exact' },
  },
  countable: ['entityType'],
});
