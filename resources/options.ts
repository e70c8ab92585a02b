import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'options',
  scope: 'brand',
  area: 'catalog',
  description: 'An option axis of the catalog, such as colour or fit; its values are option values.',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
  },
  includes: {
    optionValues: { resource: 'option-values', on: { id: 'optionId' }, description: 'The values of the option.' },
  },
  sorts: ['name'],
});
