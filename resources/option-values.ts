import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'option-values',
  scope: 'brand',
  area: 'catalog',
  description: 'One value of an option, such as the colour "Navy".',
  fields: {
    id: { type: 'uuid' },
    optionId: { type: 'uuid', references: 'options' },
    name: { type: 'string' },
    code: { type: 'string' },
    status: { type: 'string' },
    sequence: { type: 'integer', description: 'Display order within the option.' },
    hexCode: { type: 'string', description: 'Swatch colour, such as #1F2A44.' },
    swatchVersion: { type: 'integer' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    optionId: { field: 'optionId', match: 'exact' },
    id: { field: 'id', match: 'exact' },
  },
  includes: {
    option: { resource: 'options', on: { optionId: 'id' } },
  },
  sorts: ['code', 'name', 'sequence'],
  countable: ['optionId', 'status'],
});
