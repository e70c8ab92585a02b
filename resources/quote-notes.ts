import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'quote-notes',
  scope: 'brand',
  area: 'sourcing',
  description: 'A comment in the discussion of a quote.',
  fields: {
    id: { type: 'uuid' },
    quoteId: { type: 'uuid', references: 'quotes' },
    authorUserId: { type: 'uuid', description: 'The user who wrote the note.' },
    body: { type: 'string', description: 'Plain text.' },
    visibility: { type: 'string', description: 'Such as internal, supplier.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    quoteId: { field: 'quoteId', match: 'exact' },
    authorUserId: { field: 'authorUserId', match: 'exact' },
    visibility: { field: 'visibility', match: 'exact' },
    search: { fields: ['body'], match: 'contains-ci' },
  },
  includes: {
    quote: { resource: 'quotes', on: { quoteId: 'id' } },
  },
  countable: ['visibility', 'quoteId'],
});
