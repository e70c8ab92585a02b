import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Shared reference data: rows with no brand are seen by every brand. */
export default defineResource({
  path: 'units-of-measure',
  scope: 'shared',
  area: 'reference',
  description: 'Units for quantities and dimensions (pieces, metres, kilograms).',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'What the unit measures, such as count, length or weight.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
  },
  sorts: ['code', 'name'],
  countable: ['type'],
});
