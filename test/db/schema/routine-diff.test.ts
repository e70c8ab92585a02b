import { expect } from 'chai';
import { createTrigger, diffRoutines, enableAlways, introspectRoutines, triggerType } from '../../../src/db/schema/routine-diff.ts';
import { diffSchema, introspectSchema } from '../../../src/db/schema/schema-diff.ts';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';
import { renderMigration } from '../../../tools/db/render-migration.ts';
import { inRolledBackTransaction } from '../../support/in-rolled-back-transaction.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('trigger functions and triggers: the migrated schema and the plan', () => {
  it('every planned function and trigger exists, as planned (tgtype, function, and firing in every session)', async () => {
    const { db, registry } = await testDatabase();
    const sync = planSchema(registry).sync!;
    const live = await introspectRoutines(db);
    expect(diffRoutines({ ...sync, live })).to.deep.equal({ statements: [], problems: [], replaced: {} });
    for (const trigger of sync.triggers) {
      const found = live.triggers.find((t) => t.table === trigger.table && t.name === trigger.name);
      expect(found, `${trigger.table}.${trigger.name}`).to.deep.include({ type: triggerType(trigger), function: trigger.function, enabled: 'A' });
    }
  });

  it('a missing trigger comes back as DDL, a changed function is replaced, a clashing trigger is a problem', async () => {
    const { db, registry } = await testDatabase();
    const plan = planSchema(registry);
    const stamp = plan.sync!.triggers.find((t) => t.table === 'carton_sizes' && t.name === 'sync_stamp')!;
    await db.raw('drop trigger "sync_stamp" on "carton_sizes"');
    await db.raw('create or replace function "sync_stamp"() returns trigger language plpgsql as $$begin return new; end;$$');
    await db.raw('drop trigger "sync_tombstone_move" on "options"');
    await db.raw('create trigger "sync_tombstone_move" after insert on "options" for each row execute function "sync_tombstone"()');
    try {
      const diff = diffSchema(plan, await introspectSchema(db));
      expect(diff.statements).to.deep.equal([
        `create or replace function "sync_stamp"() returns trigger language plpgsql as $$${plan.sync!.functions[0]!.body}$$`,
        createTrigger(stamp),
        enableAlways(stamp),
      ]);
      expect(diff.problems).to.have.length(1);
      expect(diff.problems[0]).to.match(/^options: the trigger sync_tombstone_move exists but is not the registry's/);
      const migration = renderMigration({ statements: diff.statements, generatedBy: 'test' });
      expect(migration).to.include('`drop trigger if exists "sync_stamp" on "carton_sizes"`');
      expect(migration).to.include('`drop function if exists "sync_stamp"() cascade`');
      for (const statement of diff.statements) await db.raw(statement);
    } finally {
      const move = plan.sync!.triggers.find((t) => t.table === 'options' && t.name === 'sync_tombstone_move')!;
      await db.raw('drop trigger if exists "sync_tombstone_move" on "options"');
      await db.raw(createTrigger(move));
      await db.raw(enableAlways(move));
    }
    const after = diffSchema(plan, await introspectSchema(db));
    expect(after.statements).to.deep.equal([]);
    expect(after.problems).to.deep.equal([]);
  });

  it('a trigger of the plan with another condition is replaced in place, and the migration\'s down puts the old one back', async () => {
    const { db, registry } = await testDatabase();
    const plan = planSchema(registry);
    const move = plan.sync!.triggers.find((t) => t.table === 'colors' && t.name === 'sync_tombstone_move')!;
    await db.raw('create or replace trigger "sync_tombstone_move" after update on "colors" for each row when (old."brand_id" is distinct from new."brand_id") execute function "sync_tombstone"()');
    try {
      const diff = diffSchema(plan, await introspectSchema(db));
      // A replaced trigger fires in origin sessions only, as a new one: it is made to fire always again.
      expect(diff.statements).to.deep.equal([createTrigger(move).replace(/^create trigger/, 'create or replace trigger'), enableAlways(move)]);
      const migration = renderMigration({ statements: diff.statements, dropped: diff.dropped, generatedBy: 'test' });
      expect(migration).to.match(/CREATE OR REPLACE TRIGGER sync_tombstone_move AFTER UPDATE ON (public\.)?colors FOR EACH ROW WHEN \(\(old\.brand_id IS DISTINCT FROM new\.brand_id\)\)/);
    } finally {
      await db.raw(createTrigger(move).replace(/^create trigger/, 'create or replace trigger'));
      await db.raw(enableAlways(move));
    }
    expect(diffSchema(plan, await introspectSchema(db)).statements).to.deep.equal([]);
  });

  it('the triggers stamp every write with the writing transaction and leave a tombstone for a delete, a brand move and an id change', async () => {
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      const one = async (sql: string, values: unknown[] = []) => (await connection.query(sql, values)).rows;
      const brands = await one(`insert into brands (slug, name) values ('rt-a', 'A'), ('rt-b', 'B') returning id`);
      const xid = (await one('select pg_current_xact_id()::text as x'))[0]!.x;
      const row = (await one(`insert into carton_sizes (brand_id, name, sync_xid) values ($1, 'x', '1') returning id, sync_xid::text as s`, [brands[0]!.id]))[0]!;
      expect(row.s, 'a writer cannot choose it').to.equal(xid);
      await one('update carton_sizes set brand_id = $1 where id = $2', [brands[1]!.id, row.id]);
      const renamed = (await one('update carton_sizes set id = gen_random_uuid() where id = $1 returning id', [row.id]))[0]!.id;
      await one('delete from carton_sizes where id = $1', [renamed]);
      const tombstones = await one('select table_name, brand_id, row_id, sync_xid::text as s from sync_tombstones where row_id in ($1, $2) order by brand_id = $3, row_id = $2', [row.id, renamed, brands[0]!.id]);
      expect(tombstones).to.deep.equal([
        { table_name: 'carton_sizes', brand_id: brands[1]!.id, row_id: row.id, s: xid },
        { table_name: 'carton_sizes', brand_id: brands[1]!.id, row_id: renamed, s: xid },
        { table_name: 'carton_sizes', brand_id: brands[0]!.id, row_id: row.id, s: xid },
      ]);
    });
  });

  it('a planned trigger that does not fire in every session (enabled for origin sessions, or disabled) is made to, and the migration\'s down puts it back', async () => {
    const { db, registry } = await testDatabase();
    const plan = planSchema(registry);
    const stamp = plan.sync!.triggers.find((t) => t.table === 'colors' && t.name === 'sync_stamp')!;
    const truncate = plan.sync!.triggers.find((t) => t.table === 'colors' && t.name === 'sync_truncate')!;
    await db.raw('alter table "colors" enable trigger "sync_stamp"');
    await db.raw('alter table "colors" disable trigger "sync_truncate"');
    try {
      const diff = diffSchema(plan, await introspectSchema(db));
      expect(diff.statements).to.deep.equal([enableAlways(stamp), enableAlways(truncate)]);
      const migration = renderMigration({ statements: diff.statements, dropped: diff.dropped, generatedBy: 'test' });
      expect(migration).to.include('`alter table "colors" disable trigger "sync_truncate"`');
      expect(migration).to.include('`alter table "colors" enable trigger "sync_stamp"`');
      for (const statement of diff.statements) await db.raw(statement);
      expect(diffSchema(plan, await introspectSchema(db)).statements).to.deep.equal([]);
    } finally {
      await db.raw(enableAlways(stamp));
      await db.raw(enableAlways(truncate));
    }
  });

  it('in a session with session_replication_role = replica (a subscription\'s apply, a bulk loader) the triggers still stamp and leave tombstones', async () => {
    const { db } = await testDatabase();
    await inRolledBackTransaction(db, async (connection) => {
      const one = async (sql: string, values: unknown[] = []) => (await connection.query(sql, values)).rows;
      const brands = await one(`insert into brands (slug, name) values ('rr-a', 'A'), ('rr-b', 'B') returning id`);
      await one('set local session_replication_role = replica');
      const xid = (await one('select pg_current_xact_id()::text as x'))[0]!.x;
      const row = (await one(`insert into carton_sizes (brand_id, name, sync_xid) values ($1, 'x', '1') returning id, sync_xid::text as s`, [brands[0]!.id]))[0]!;
      expect(row.s).to.equal(xid);
      await one('update carton_sizes set brand_id = $1 where id = $2', [brands[1]!.id, row.id]);
      await one('delete from carton_sizes where id = $1', [row.id]);
      const tombstones = await one('select brand_id, sync_xid::text as s from sync_tombstones where row_id = $1 order by brand_id = $2', [row.id, brands[0]!.id]);
      expect(tombstones).to.deep.equal([{ brand_id: brands[1]!.id, s: xid }, { brand_id: brands[0]!.id, s: xid }]);
    });
  });

  it('a TRUNCATE records the brands whose rows it removed (every brand for rows without one, or when it cannot tell), in a replica session too', async () => {
    const { db } = await testDatabase();
    const brands = await inRolledBackTransaction(db, async (connection) => {
      const one = async (sql: string, values: unknown[] = []) => (await connection.query(sql, values)).rows;
      const made = (await one(`insert into brands (slug, name) values ('tr-a', 'A'), ('tr-b', 'B'), ('tr-c', 'C') returning id`)).map((row) => row.id as string);
      await one(`insert into carton_sizes (brand_id, name) values ($1, 'a1'), ($1, 'a2'), ($2, 'b1')`, [made[0], made[1]]);
      await one(`insert into couriers (brand_id, name) values ($1, 'own'), (null, 'shared')`, [made[2]]);
      await one('set local session_replication_role = replica');
      const xid = (await one('select pg_current_xact_id()::text as x'))[0]!.x;
      // Rows other tests of this process left count too: every brand that had a row is recorded.
      const brandsOf = async (table: string): Promise<string[]> => (await one(`select distinct brand_id::text as b from ${table} where brand_id is not null order by 1`)).map((row) => row.b as string);
      const [cartonBrands, courierBrands] = [await brandsOf('carton_sizes'), await brandsOf('couriers')];
      expect(cartonBrands).to.include.members([made[0], made[1]]);
      expect(courierBrands).to.include(made[2]);
      await one('truncate carton_sizes, couriers cascade');
      const recorded = await one(`select table_name, brand_id, sync_xid::text as s from sync_truncations where table_name in ('carton_sizes', 'couriers') and sync_xid = pg_current_xact_id() order by table_name, brand_id is null, brand_id::text`);
      expect(recorded).to.deep.equal([
        ...cartonBrands.map((brand) => ({ table_name: 'carton_sizes', brand_id: brand, s: xid })),
        ...courierBrands.map((brand) => ({ table_name: 'couriers', brand_id: brand, s: xid })),
        { table_name: 'couriers', brand_id: null, s: xid },
      ]);
      return made;
    });
    await inRolledBackTransaction(db, async (connection) => {
      const one = async (sql: string, values: unknown[] = []) => (await connection.query(sql, values)).rows;
      await one('set transaction isolation level repeatable read');
      await one(`insert into brands (slug, name) values ('tr-d', 'D')`);
      await one('truncate carton_sizes cascade');
      expect(await one(`select distinct brand_id from sync_truncations where table_name = 'carton_sizes' and sync_xid = pg_current_xact_id()`), 'a snapshot older than the lock: every brand').to.deep.equal([{ brand_id: null }]);
    });
    expect(brands).to.have.length(3);
  });
});
