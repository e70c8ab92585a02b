import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'checklists',
  scope: 'brand',
  area: 'sourcing',
  description: 'A list of checkpoints used to review samples or inspect goods.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'Such as sample_review, inspection.' },
    items: { type: 'json', description: 'The checkpoints, as stored.' },
    status: { type: 'string', description: 'Such as active, retired.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  sorts: ['code', 'name'],
  countable: ['status', 'type'],
});
