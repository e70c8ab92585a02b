import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'locations',
  scope: 'brand',
  area: 'logistics',
  description: 'A physical place: warehouse, factory, port, office or store.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', description: 'Such as a UN/LOCODE for a port.' },
    name: { type: 'string' },
    type: { type: 'string', description: 'Such as warehouse, factory, port, office, store.' },
    addressLine1: { type: 'string' },
    addressLine2: { type: 'string' },
    city: { type: 'string' },
    region: { type: 'string', description: 'State, province or county.' },
    postalCode: { type: 'string' },
    countryId: { type: 'uuid', references: 'countries' },
    latitude: { type: 'decimal', description: 'Degrees, WGS 84.' },
    longitude: { type: 'decimal', description: 'Degrees, WGS 84.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    countryId: { field: 'countryId', match: 'exact' },
    search: { fields: ['name', 'code', 'city'], match: 'contains-ci' },
  },
  includes: {
    country: { resource: 'countries', on: { countryId: 'id' } },
  },
  sorts: ['code', 'name'],
  countable: ['type', 'countryId'],
});
