import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'partners',
  scope: 'brand',
  area: 'sourcing',
  description: 'A company the brand works with: factory, agent, forwarder, supplier, warehouse or customer.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'Such as factory, agent, forwarder, supplier, warehouse, customer.' },
    status: { type: 'string', description: 'Such as active, inactive.' },
    countryId: { type: 'uuid', references: 'countries' },
    website: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    countryId: { field: 'countryId', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    country: { resource: 'countries', on: { countryId: 'id' } },
    contacts: { resource: 'contacts', on: { id: 'partnerId' } },
    locations: { resource: 'partner-locations', on: { id: 'partnerId' }, description: 'Links to the partner\'s sites.' },
    suppliers: { resource: 'suppliers', on: { id: 'partnerId' }, description: 'The supplier records of the partner.' },
  },
  sorts: ['code', 'name'],
  countable: ['status', 'type', 'countryId'],
});
