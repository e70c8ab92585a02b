import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'bom-components',
  scope: 'brand',
  description: 'One material line of a BOM: what is used, where, and how much per unit.',
  fields: {
    id: { type: 'uuid' },
    bomId: { type: 'uuid', references: 'boms' },
    bomSectionId: { type: 'uuid', references: 'bom-sections' },
    materialId: { type: 'uuid', references: 'materials' },
    materialVariantId: { type: 'uuid', references: 'material-variants', description: 'The colour or finish of the material; null when any variant will do.' },
    placement: { type: 'string', description: 'Where the material is used, such as "body" or "neck trim".' },
    quantity: { type: 'decimal', description: 'Consumption per finished unit, in the unit of measure.' },
    unitOfMeasureId: { type: 'uuid', references: 'units-of-measure' },
    wastagePercent: { type: 'decimal', description: 'Allowance for cutting loss, in percent of the quantity.' },
    sequence: { type: 'integer', description: 'Display order within the section.' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    bomId: { field: 'bomId', match: 'exact' },
    bomSectionId: { field: 'bomSectionId', match: 'exact' },
    materialId: { field: 'materialId', match: 'exact' },
    materialVariantId: { field: 'materialVariantId', match: 'exact' },
    unitOfMeasureId: { field: 'unitOfMeasureId', match: 'exact' },
    search: { fields: ['placement'], match: 'contains-ci' },
  },
  includes: {
    bom: { resource: 'boms', on: { bomId: 'id' } },
    bomSection: { resource: 'bom-sections', on: { bomSectionId: 'id' } },
    material: { resource: 'materials', on: { materialId: 'id' } },
    materialVariant: { resource: 'material-variants', on: { materialVariantId: 'id' } },
    unitOfMeasure: { resource: 'units-of-measure', on: { unitOfMeasureId: 'id' } },
  },
});
