import { expect } from 'chai';
import { diffSchema, introspectSchema } from '../../src/db/schema-diff.ts';
import { planSchema } from '../../src/engine/table-plan.ts';
import { testDatabase } from '../support/test-database.ts';

describe('the migrated schema and the registry', () => {
  it('agree: every table, column (type and nullability), foreign key and index the registry needs exists', async () => {
    const { db, registry } = await testDatabase();
    const diff = diffSchema(planSchema(registry), await introspectSchema(db));
    expect(diff.problems).to.deep.equal([]);
    expect(diff.statements).to.deep.equal([]);
  });

  it('every list filter and the keyset order are backed by an index that leads with the brand', async () => {
    const { registry } = await testDatabase();
    const plan = planSchema(registry);
    for (const resource of registry.resources.filter((r) => r.scope !== 'tenant')) {
      const indexes = plan.indexes.filter((index) => index.table === resource.table);
      expect(indexes.some((i) => i.columns.join() === 'brand_id,created_at,id'), `${resource.path} keyset`).to.equal(true);
      for (const filter of resource.filters) {
        for (const target of filter.targets) {
          if (target.join !== null || target.column === 'id') continue;
          // A filter on created_at itself (createdSince) is served by the keyset index.
          const expected = target.column === 'created_at' ? 'brand_id,created_at,id' : `brand_id,${target.column},created_at,id`;
          const served = indexes.some((i) => (i.method === 'gin' && i.columns[0] === target.column) || i.columns.join() === expected);
          expect(served, `${resource.path}.${filter.name}`).to.equal(true);
        }
      }
    }
  });

  it('reports what is missing as DDL, and disagreements as problems', async () => {
    const { db, registry } = await testDatabase();
    await db.raw('drop index "products_brand_id_status_created_at_id_idx"');
    await db.raw('alter table "carton_sizes" alter column "name" set not null');
    try {
      const diff = diffSchema(planSchema(registry), await introspectSchema(db));
      expect(diff.statements).to.deep.equal([
        'create index "products_brand_id_status_created_at_id_idx" on "products" using btree ("brand_id", "status", "created_at", "id")',
      ]);
      expect(diff.problems).to.deep.equal(['carton_sizes.name: the database says not null, the registry says nullable']);
    } finally {
      await db.raw('create index "products_brand_id_status_created_at_id_idx" on "products" using btree ("brand_id", "status", "created_at", "id")');
      await db.raw('alter table "carton_sizes" alter column "name" drop not null');
    }
  });
});
