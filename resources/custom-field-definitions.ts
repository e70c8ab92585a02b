import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'custom-field-definitions',
  scope: 'brand',
  area: 'reference',
  description: 'A field the brand adds to the records of a family, with its type and choices.',
  fields: {
    id: { type: 'uuid' },
    entityType: { type: 'string', description: 'The kind of record the field extends, such as product, order or supplier.' },
    key: { type: 'string', description: 'Machine name of the field.' },
    label: { type: 'string', description: 'Name shown to people.' },
    dataType: { type: 'string', description: 'Such as text, number, date, boolean, select.' },
    options: { type: 'json', description: 'The choices of a select field, as stored.' },
    required: { type: 'boolean' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    entityType: { field: 'entityType', match: 'exact' },
    key: { field: 'key', match: 'exact' },
    dataType: { field: 'dataType', match: 'exact' },
    search: { fields: ['label', 'key'], match: 'contains-ci' },
  },
  sorts: ['key', 'label'],
  countable: ['entityType', 'dataType'],
});
