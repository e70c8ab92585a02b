import { defineResource } from '../src/engine/definition/define-resource.ts';

/** The brand itself: `GET /brands/{brand}` returns the brand the path names. */
export default defineResource({
  path: 'brands',
  scope: 'tenant',
  area: 'reference',
  title: 'Brand',
  description: 'The brand whose data the key reads.',
  fields: {
    id: { type: 'uuid' },
    slug: { type: 'string', nullable: false, unique: true, description: 'The brand segment of every path.' },
    name: { type: 'string', nullable: false },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
});
