import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'launch-windows',
  scope: 'brand',
  area: 'catalog',
  description: 'A period in which products go on sale.',
  fields: {
    id: { type: 'uuid' },
    code: { type: 'string' },
    name: { type: 'string' },
    startsOn: { type: 'date', description: 'First day of the window.' },
    endsOn: { type: 'date', description: 'Last day of the window.' },
    status: { type: 'string', description: 'Such as planned, open, closed.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    products: { resource: 'product-launch-windows', on: { id: 'launchWindowId' }, description: 'Links to the products scheduled in the window.' },
  },
  sorts: ['code', 'name', 'startsOn', 'endsOn'],
  ranges: ['startsOn', 'endsOn'],
  countable: ['status'],
});
