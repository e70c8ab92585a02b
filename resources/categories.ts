import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'categories',
  scope: 'brand',
  area: 'catalog',
  description: 'Product categories, optionally nested (Tops > T-Shirts).',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string', nullable: false },
    parentId: { type: 'uuid', references: 'categories', description: 'The enclosing category, or null at the top.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
    parentId: { field: 'parentId', match: 'exact' },
  },
  includes: {
    parent: { resource: 'categories', on: { parentId: 'id' } },
  },
  sorts: ['name'],
  countable: ['parentId'],
});
