import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Shared reference data: rows with no brand are seen by every brand. */
export default defineResource({
  path: 'document-types',
  scope: 'shared',
  area: 'reference',
  description: 'A kind of document, such as commercial invoice, packing list or test report.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    category: { type: 'string', description: 'Such as commercial, logistics, compliance, technical.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    category: { field: 'category', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  sorts: ['code', 'name'],
  countable: ['category'],
});
