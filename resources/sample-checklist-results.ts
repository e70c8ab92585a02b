import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'sample-checklist-results',
  scope: 'brand',
  area: 'sourcing',
  description: 'The outcome of one checkpoint when a sample round was reviewed.',
  fields: {
    id: { type: 'uuid' },
    sampleRoundId: { type: 'uuid', references: 'sample-rounds' },
    checklistId: { type: 'uuid', references: 'checklists' },
    checkpoint: { type: 'string', description: 'The checklist item assessed.' },
    result: { type: 'string', description: 'Such as pass, fail, na.' },
    comment: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    sampleRoundId: { field: 'sampleRoundId', match: 'exact' },
    checklistId: { field: 'checklistId', match: 'exact' },
    result: { field: 'result', match: 'exact' },
  },
  includes: {
    sampleRound: { resource: 'sample-rounds', on: { sampleRoundId: 'id' } },
    checklist: { resource: 'checklists', on: { checklistId: 'id' } },
  },
  countable: ['result', 'sampleRoundId', 'checklistId'],
});
