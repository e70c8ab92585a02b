import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Shared reference data: rows with no brand are seen by every brand. */
export default defineResource({
  path: 'payment-terms',
  scope: 'shared',
  area: 'reference',
  description: 'Terms of payment, such as 30 days net.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    netDays: { type: 'integer', description: 'Days from invoice date to due date.' },
    description: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  sorts: ['code', 'name'],
});
