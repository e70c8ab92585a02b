import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'carton-sizes',
  scope: 'brand',
  area: 'reference',
  description: 'Outer carton dimensions used when packing shipments.',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    lengthCm: { type: 'decimal', description: 'Centimetres.' },
    widthCm: { type: 'decimal', description: 'Centimetres.' },
    heightCm: { type: 'decimal', description: 'Centimetres.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    name: { field: 'name', match: 'exact' },
  },
  sorts: ['name'],
});
