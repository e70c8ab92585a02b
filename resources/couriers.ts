import { defineResource } from '../src/engine/definition/define-resource.ts';

/** Shared reference data: rows with no brand are seen by every brand. */
export default defineResource({
  path: 'couriers',
  scope: 'shared',
  area: 'reference',
  description: 'A carrier that moves shipments: airline, shipping line, trucker or express courier.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string', description: 'Carrier code, such as a SCAC or IATA code.' },
    name: { type: 'string' },
    mode: { type: 'string', description: 'Such as air, ocean, road, express.' },
    trackingUrlTemplate: { type: 'string', description: 'Tracking page URL with a {trackingNumber} placeholder.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    mode: { field: 'mode', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  sorts: ['code', 'name'],
  countable: ['mode'],
});
