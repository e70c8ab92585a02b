import { expect } from 'chai';
import { planForeignKeys } from '../../../src/db/schema/distribution-foreign-keys.ts';
import { distributionRoles } from '../../../src/db/schema/distribution-roles.ts';
import { SERVICE_TABLES } from '../../../src/db/schema/service-tables.ts';
import type { ColumnPlan, SchemaPlan } from '../../../src/engine/compile/plan-schema.ts';

const column = (name: string, references: string | null = null): ColumnPlan =>
  ({ name, type: 'uuid', dataType: 'uuid', nullable: false, default: null, references });

describe('planForeignKeys', () => {
  it('names each key as the migrations do, composite only between two distributed tables, then the service tables\' keys', () => {
    const schema: SchemaPlan = {
      tables: [
        { name: 'brands', scope: 'tenant', columns: [column('id')] },
        { name: 'units', scope: 'shared', columns: [column('id'), column('brand_id', 'brands')] },
        { name: 'products', scope: 'brand', columns: [column('id'), column('brand_id', 'brands'), column('unit_id', 'units')] },
        { name: 'skus', scope: 'brand', columns: [column('id'), column('brand_id', 'brands'), column('product_id', 'products')] },
      ],
      indexes: [],
    };
    const keys = planForeignKeys({ schema, roles: distributionRoles(schema) });
    expect(keys.map(({ table, column: from, references, name, onDelete, composite }) => [table, from, references, name, onDelete, composite])).to.deep.equal([
      ['units', 'brand_id', 'brands', 'units_brand_id_fkey', null, false],
      ['products', 'brand_id', 'brands', 'products_brand_id_fkey', null, false],
      ['products', 'unit_id', 'units', 'products_unit_id_fkey', null, false],
      ['skus', 'brand_id', 'brands', 'skus_brand_id_fkey', null, false],
      ['skus', 'product_id', 'products', 'skus_product_id_fkey', null, true],
      ...SERVICE_TABLES.flatMap((table) => table.foreignKeys.map((key) => [table.name, key.column, key.references, key.name, key.onDelete, false])),
    ]);
  });
});
