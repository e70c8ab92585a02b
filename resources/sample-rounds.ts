import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'sample-rounds',
  scope: 'brand',
  area: 'sourcing',
  description: 'One submission of a sample and the brand\'s decision on it.',
  fields: {
    id: { type: 'uuid' },
    sampleId: { type: 'uuid', references: 'samples' },
    roundNumber: { type: 'integer', description: 'Counts up from 1 per sample.' },
    status: { type: 'string', description: 'Such as pending, sent, received, reviewed.' },
    sentAt: { type: 'timestamp', description: 'When the supplier dispatched the sample.' },
    receivedAt: { type: 'timestamp' },
    decision: { type: 'string', description: 'Such as approved, rejected, resubmit.' },
    comments: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    sampleId: { field: 'sampleId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    decision: { field: 'decision', match: 'exact' },
  },
  includes: {
    sample: { resource: 'samples', on: { sampleId: 'id' } },
    checklistResults: { resource: 'sample-checklist-results', on: { id: 'sampleRoundId' } },
  },
  sorts: ['roundNumber', 'sentAt', 'receivedAt'],
  ranges: ['sentAt', 'receivedAt'],
  countable: ['status', 'sampleId', 'decision'],
});
