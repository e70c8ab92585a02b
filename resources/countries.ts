import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Shared reference data: rows with no brand are seen by every brand. */
export default defineResource({
  path: 'countries',
  scope: 'shared',
  area: 'reference',
  description: 'A country, for addresses, origins and price markets.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', description: 'ISO 3166-1 alpha-2 code, such as PT.' },
    name: { type: 'string' },
    region: { type: 'string', description: 'Such as Europe or South-East Asia.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    region: { field: 'region', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  sorts: ['code', 'name'],
  countable: ['region'],
});
