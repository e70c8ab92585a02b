import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'contacts',
  scope: 'brand',
  area: 'sourcing',
  description: 'A person at a partner.',
  fields: {
    id: { type: 'uuid' },
    partnerId: { type: 'uuid', references: 'partners' },
    name: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    role: { type: 'string', description: 'Such as sales, quality, logistics, finance.' },
    isPrimary: { type: 'boolean', description: 'The partner\'s main contact.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    partnerId: { field: 'partnerId', match: 'exact' },
    role: { field: 'role', match: 'exact' },
    search: { fields: ['name', 'email'], match: 'contains-ci' },
  },
  includes: {
    partner: { resource: 'partners', on: { partnerId: 'id' } },
  },
  sorts: ['name'],
  countable: ['partnerId', 'role'],
});
