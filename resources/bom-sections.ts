import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'bom-sections',
  scope: 'brand',
  area: 'catalog',
  description: 'A group of components within a BOM, such as shell, lining or packaging.',
  fields: {
    id: { type: 'uuid' },
    bomId: { type: 'uuid', references: 'boms' },
    name: { type: 'string' },
    sequence: { type: 'integer', description: 'Display order within the BOM.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    bomId: { field: 'bomId', match: 'exact' },
    search: { fields: ['name'], match: 'contains-ci' },
  },
  includes: {
    bom: { resource: 'boms', on: { bomId: 'id' } },
    components: { resource: 'bom-components', on: { id: 'bomSectionId' } },
  },
  sorts: ['name', 'sequence'],
  countable: ['bomId'],
});
