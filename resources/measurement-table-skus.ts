import { defineResource } from '../src/engine/definition/define-resource.ts';

export default defineResource({
  path: 'measurement-table-skus',
  scope: 'brand',
  area: 'catalog',
  description: 'A SKU that a measurement table applies to.',
  fields: {
    id: { type: 'uuid' },
    measurementTableId: { type: 'uuid', references: 'measurement-tables' },
    skuId: { type: 'uuid', references: 'skus' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  filters: {
    measurementTableId: { field: 'measurementTableId', match: 'exact' },
    skuId: { field: 'skuId', match: 'exact' },
  },
  includes: {
    measurementTable: { resource: 'measurement-tables', on: { measurementTableId: 'id' } },
    sku: { resource: 'skus', on: { skuId: 'id' } },
  },
  countable: ['measurementTableId', 'skuId'],
});
