import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'materials',
  scope: 'brand',
  area: 'catalog',
  description: 'A raw material or component: fabric, trim, label or packaging.',
  fields: {
    id: { type: 'uuid' },
    supplierId: { type: 'uuid', references: 'suppliers', description: 'The usual supplier of the material.' },
    code: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string', description: 'Such as fabric, trim, label, packaging.' },
    composition: { type: 'string', description: 'Fibre content, such as "95% cotton, 5% elastane".' },
    weightGsm: { type: 'decimal', description: 'Fabric weight, grams per square metre.' },
    unitOfMeasureId: { type: 'uuid', references: 'units-of-measure', description: 'The unit the material is bought and consumed in.' },
    status: { type: 'string', description: 'Such as development, active, inactive.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    supplierId: { field: 'supplierId', match: 'exact' },
    code: { field: 'code', match: 'exact' },
    type: { field: 'type', match: 'exact' },
    unitOfMeasureId: { field: 'unitOfMeasureId', match: 'exact' },
    status: { field: 'status', match: 'exact' },
    search: { fields: ['name', 'code'], match: 'contains-ci' },
  },
  includes: {
    supplier: { resource: 'suppliers', on: { supplierId: 'id' } },
    unitOfMeasure: { resource: 'units-of-measure', on: { unitOfMeasureId: 'id' } },
    variants: { resource: 'material-variants', on: { id: 'materialId' } },
  },
  sorts: ['code', 'name', 'weightGsm'],
  ranges: ['weightGsm'],
  countable: ['supplierId', 'type', 'unitOfMeasureId', 'status'],
});
