import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'partner-locations',
  scope: 'brand',
  area: 'sourcing',
  description: 'A site of a partner, with its role.',
  fields: {
    id: { type: 'uuid' },
    partnerId: { type: 'uuid', references: 'partners' },
    locationId: { type: 'uuid', references: 'locations' },
    role: { type: 'string', description: 'Such as factory, office, warehouse, billing.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    partnerId: { field: 'partnerId', match: 'exact' },
    locationId: { field: 'locationId', match: 'exact' },
    role: { field: 'role', match: 'exact' },
  },
  includes: {
    partner: { resource: 'partners', on: { partnerId: 'id' } },
    location: { resource: 'locations', on: { locationId: 'id' } },
  },
  countable: ['partnerId', 'locationId'],
});
