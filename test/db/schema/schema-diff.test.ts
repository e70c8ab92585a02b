import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { diffSchema, introspectSchema } from '../../../src/db/schema/schema-diff.ts';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';
import { renderMigration } from '../../../tools/db/render-migration.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('the migrated schema and the registry', () => {
  it('agree: every table, column (type and nullability), foreign key and index the registry needs exists', async () => {
    const { db, registry } = await testDatabase();
    const diff = diffSchema(planSchema(registry), await introspectSchema(db));
    expect(diff.problems).to.deep.equal([]);
    expect(diff.statements).to.deep.equal([]);
    expect(diff.dropped).to.deep.equal({});
  });

  it('every list filter and the keyset order are backed by an index that leads with the brand, a search by a trigram GIN', async () => {
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
          const served = indexes.some((i) => i.columns.join() === (i.method === 'gin' ? `brand_id,${target.column}` : expected));
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

describe('the migrated schema and the registry: indexes the registry no longer plans', () => {
  const stale = 'create index "products_name_trgm" on "products" using gin ("name" gin_trgm_ops)';
  // The right columns under the planned name, but btree_gin's text operator class instead of trigrams: useless for ILIKE.
  const wrongClass = 'create index "products_brand_id_code_trgm" on "products" using gin ("brand_id", "code")';
  const right = 'create index "products_brand_id_code_trgm" on "products" using gin ("brand_id", "code" gin_trgm_ops)';

  async function plantStaleIndexes(db: Knex): Promise<void> {
    await db.raw(stale);
    await db.raw('drop index "products_brand_id_code_trgm"');
    await db.raw(wrongClass);
  }

  async function restore(db: Knex): Promise<void> {
    await db.raw('drop index if exists "products_name_trgm"');
    await db.raw('drop index if exists "products_brand_id_code_trgm"');
    await db.raw(right);
  }

  it('drops them after building their replacement, or before when the replacement takes the name, and keeps their DDL for down', async () => {
    const { db, registry } = await testDatabase();
    await plantStaleIndexes(db);
    try {
      const diff = diffSchema(planSchema(registry), await introspectSchema(db));
      expect(diff.problems).to.deep.equal([]);
      expect(diff.statements).to.deep.equal([
        'drop index if exists "products_brand_id_code_trgm"',
        right,
        'drop index if exists "products_name_trgm"',
      ]);
      expect(diff.dropped).to.deep.equal({ products_brand_id_code_trgm: wrongClass, products_name_trgm: stale });
    } finally {
      await restore(db);
    }
  });

  it('leaves primary keys, constraints and partial or expression indexes alone', async () => {
    const { db, registry } = await testDatabase();
    await db.raw('create index "products_partial" on "products" ("name") where "status" = \'draft\'');
    await db.raw('create index "products_lower_name" on "products" (lower("name"))');
    await db.raw('alter table "products" add constraint "products_code_unique" unique ("brand_id", "code", "id")');
    try {
      const diff = diffSchema(planSchema(registry), await introspectSchema(db));
      expect(diff.statements).to.deep.equal([]);
    } finally {
      await db.raw('drop index "products_partial"');
      await db.raw('drop index "products_lower_name"');
      await db.raw('alter table "products" drop constraint "products_code_unique"');
    }
  });

  it('a migration written from the diff brings the schema to the plan, and its down brings back what was there', async function () {
    this.timeout(60_000);
    const { db, registry } = await testDatabase();
    const plan = planSchema(registry);
    await plantStaleIndexes(db);
    const dir = await mkdtemp(join(tmpdir(), 'bcat-migration-'));
    try {
      const before = diffSchema(plan, await introspectSchema(db));
      const file = join(dir, 'migration.ts');
      await writeFile(file, renderMigration({ statements: before.statements, dropped: before.dropped, generatedBy: 'a test' }));
      const migration = (await import(pathToFileURL(file).href)) as Knex.Migration;
      await migration.up(db);
      expect(diffSchema(plan, await introspectSchema(db)).statements, 'after up').to.deep.equal([]);
      await migration.down!(db);
      expect(diffSchema(plan, await introspectSchema(db)), 'after down').to.deep.equal(before);
    } finally {
      await restore(db);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
