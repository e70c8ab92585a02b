import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'dimensions',
  scope: 'brand',
  area: 'catalog',
  description: 'A size axis, such as alpha size, waist or inseam.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'Such as size, length, cup, width.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    values: { resource: 'dimension-values', on: { id: 'dimensionId' } },
  },
  sorts: ['code', 'name'],
  countable: ['type'],
});
