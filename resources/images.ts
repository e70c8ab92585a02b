import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'images',
  scope: 'brand',
  area: 'documents',
  description: 'An image attached to a record, such as a product shot or colour swatch.',
  fields: {
    id: { type: 'uuid' },
    entityType: { type: 'string', description: 'The kind of record the image belongs to, such as product, product_option, material, sample.' },
    entityId: { type: 'uuid', description: 'Id of that record.' },
    url: { type: 'string' },
    altText: { type: 'string' },
    sequence: { type: 'integer', description: 'Display order among the record\'s images.' },
    width: { type: 'integer', description: 'Pixels.' },
    height: { type: 'integer', description: 'Pixels.' },
    isPrimary: { type: 'boolean', description: 'The record\'s main image.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    entityType: { field: 'entityType', match: 'exact' },
    entityId: { field: 'entityId', match: 'exact' },
  },
  sorts: ['sequence'],
  countable: ['entityType'],
});
