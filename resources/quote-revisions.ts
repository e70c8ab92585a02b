import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'quote-revisions',
  scope: 'brand',
  area: 'sourcing',
  description: 'One round of a quote: each resubmission by the supplier is a revision.',
  fields: {
    id: { type: 'uuid' },
    quoteId: { type: 'uuid', references: 'quotes' },
    revisionNumber: { type: 'integer', description: 'Counts up from 1 per quote.' },
    status: { type: 'string', description: 'Such as draft, submitted, superseded, accepted.' },
    submittedAt: { type: 'timestamp' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    quoteId: { field: 'quoteId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
  },
  includes: {
    quote: { resource: 'quotes', on: { quoteId: 'id' } },
    items: { resource: 'quote-items', on: { id: 'quoteRevisionId' } },
  },
  sorts: ['revisionNumber', 'submittedAt'],
  ranges: ['submittedAt'],
  countable: ['status', 'quoteId'],
});
