import { expect } from 'chai';
import { distributionSteps, primaryKeyName } from '../../../src/db/schema/distribution-steps.ts';
import { SERVICE_TABLES } from '../../../src/db/schema/service-tables.ts';
import type { SchemaPlan } from '../../../src/engine/compile/plan-schema.ts';
import type { DistributionRole } from '../../../src/db/schema/distribution-roles.ts';

describe('distributionSteps', () => {
  const schema: SchemaPlan = {
    tables: [
      { name: 'units', scope: 'shared', columns: [] },
      { name: 'brands', scope: 'tenant', columns: [] },
      { name: 'products', scope: 'brand', columns: [] },
      { name: 'skus', scope: 'brand', columns: [] },
    ],
    indexes: [],
  };
  const roles = new Map<string, DistributionRole>([['units', 'reference'], ['brands', 'reference'], ['products', 'distributed'], ['skus', 'distributed']]);
  const foreignKeys = [
    { table: 'skus', column: 'product_id', references: 'products', name: 'skus_product_id_fkey', onDelete: null, composite: true },
    { table: 'skus', column: 'unit_id', references: 'units', name: 'skus_unit_id_fkey', onDelete: 'cascade' as const, composite: false },
  ];

  it('drops the keys, moves the primary keys, makes the reference tables (the tenant first), the distributed ones (the group first), and adds the keys back', () => {
    const steps = distributionSteps({ schema, roles, foreignKeys, colocateWith: 'skus' });
    expect(steps.map(({ phase, table, sql }) => `${phase} ${table}: ${sql}`)).to.deep.equal([
      'drop-foreign-keys skus: alter table "skus" drop constraint "skus_product_id_fkey"',
      'drop-foreign-keys skus: alter table "skus" drop constraint "skus_unit_id_fkey"',
      'primary-keys products: alter table "products" drop constraint "products_pkey", add constraint "products_pkey" primary key ("brand_id", "id")',
      'primary-keys skus: alter table "skus" drop constraint "skus_pkey", add constraint "skus_pkey" primary key ("brand_id", "id")',
      "reference-tables brands: select create_reference_table('brands')",
      "reference-tables units: select create_reference_table('units')",
      ...SERVICE_TABLES.map((t) => `reference-tables ${t.name}: select create_reference_table('${t.name}')`),
      "distributed-tables skus: select create_distributed_table('skus', 'brand_id', colocate_with => 'none')",
      "distributed-tables products: select create_distributed_table('products', 'brand_id', colocate_with => 'skus')",
      'foreign-keys skus: alter table "skus" add constraint "skus_product_id_fkey" foreign key ("brand_id", "product_id") references "products" ("brand_id", "id")',
      'foreign-keys skus: alter table "skus" add constraint "skus_unit_id_fkey" foreign key ("unit_id") references "units" ("id") on delete cascade',
    ]);
  });
});

describe('primaryKeyName', () => {
  it("is Postgres's `<table>_pkey`, the table name cut so the whole fits 63 bytes", () => {
    expect(primaryKeyName('products')).to.equal('products_pkey');
    const long = 'x'.repeat(70);
    expect(primaryKeyName(long)).to.equal(`${'x'.repeat(58)}_pkey`);
    expect(primaryKeyName(long)).to.have.length(63);
  });
});
