import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'brand-locations',
  scope: 'brand',
  area: 'logistics',
  description: 'A location the brand itself operates, with its role.',
  fields: {
    id: { type: 'uuid' },
    locationId: { type: 'uuid', references: 'locations' },
    role: { type: 'string', description: 'Such as headquarters, distribution_center, store.' },
    isDefault: { type: 'boolean', description: 'The default location for its role.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    locationId: { field: 'locationId', match: 'exact' },
    role: { field: 'role', match: 'exact' },
  },
  includes: {
    location: { resource: 'locations', on: { locationId: 'id' } },
  },
  countable: ['locationId', 'role', 'isDefault'],
});
