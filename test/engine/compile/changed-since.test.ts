import { expect } from 'chai';
import { compileChangedSince } from '../../../src/engine/compile/changed-since.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { writtenBy } from '../../support/written-by.ts';

/**
 * The remembered counts' probe on the database: after the `xmin` a count ran
 * at, a write of the brand's rows, however it arrives, says "changed"; a
 * write of another brand's rows does not.
 */
describe('compileChangedSince: whether a remembered count may be reused', () => {
  let brand: { id: string; slug: string };
  let other: { id: string; slug: string };

  beforeEach(async () => {
    ({ brand } = await resetToBrand('acme'));
    other = await createBrand('globex');
    await insert('carton-sizes', brand.id, [{ name: 'a' }]);
    await insert('carton-sizes', other.id, [{ name: 'b' }]);
  });

  /**
   * An xmin a count could remember: a new transaction id, above every write
   * committed so far (a real snapshot's xmin may be held back by any
   * transaction of the cluster, and would find the set-up's writes).
   */
  async function xminNow(): Promise<string> {
    const { db } = await testDatabase();
    return ((await db.raw('select pg_current_xact_id()::text as x')) as { rows: { x: string }[] }).rows[0]!.x;
  }

  async function changed(brandId: string, xmin: string, snapshot = `${xmin}:${xmin}:`): Promise<boolean> {
    const { db, registry } = await testDatabase();
    const plan = compileChangedSince(registry.get('carton-sizes'))({ brandId, snapshot });
    return ((await db.raw(plan.sql, plan.bindings as never[])) as { rows: { changed: boolean }[] }).rows[0]!.changed;
  }

  /** Runs statements in one transaction of a session with `session_replication_role = replica`, as a subscription's apply does. */
  async function asReplica(statements: (trx: { raw(sql: string, bindings?: unknown[]): Promise<unknown> }) => Promise<void>): Promise<void> {
    const { db } = await testDatabase();
    await db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await statements(trx as never);
    });
  }

  it('nothing written since: unchanged; a write of another brand: unchanged', async () => {
    const xmin = await xminNow();
    expect(await changed(brand.id, xmin)).to.equal(false);
    await insert('carton-sizes', other.id, [{ name: 'c' }]);
    expect(await changed(brand.id, xmin)).to.equal(false);
  });

  it('a transaction in progress in the snapshot counts as a change once it has written the brand\'s rows, and only then', async () => {
    const xmin = await xminNow();
    for (const [write, brandOf, expected] of [
      ['insert into carton_sizes (brand_id, name) values (?, \'during\')', () => brand.id, true],
      ['update carton_sizes set name = \'during\' where brand_id = ?', () => brand.id, true],
      ['delete from carton_sizes where brand_id = ? and name = \'during\'', () => brand.id, true],
      ['insert into carton_sizes (brand_id, name) values (?, \'during\')', () => other.id, false],
    ] as const) {
      const id = await writtenBy(write, [brandOf()]);
      // A snapshot that saw every transaction up to this one but this one, in progress then; then one that saw it.
      expect(await changed(brand.id, xmin, `${xmin}:${id + 1n}:${id}`), write).to.equal(expected);
      expect(await changed(brand.id, xmin, `${xmin}:${id + 1n}:`), `${write}, seen`).to.equal(false);
      // Another id in progress, one that wrote nothing here: no change.
      expect(await changed(brand.id, xmin, `${id}:${id + 2n}:${id + 1n}`), `${write}, another in progress`).to.equal(false);
    }
  });

  it('an insert, an update and a delete made in a replica session are seen', async () => {
    for (const write of [
      'insert into carton_sizes (brand_id, name) values (?, \'replica\')',
      'update carton_sizes set name = \'renamed\' where brand_id = ?',
      'delete from carton_sizes where brand_id = ?',
    ]) {
      const xmin = await xminNow();
      await asReplica((trx) => trx.raw(write, [brand.id]).then(() => undefined));
      expect(await changed(brand.id, xmin), write).to.equal(true);
    }
  });

  it('a TRUNCATE is seen by the brands whose rows it removed, and by every brand when it removed rows of none in particular', async () => {
    const { db } = await testDatabase();
    const third = await createBrand('initech');
    let xmin = await xminNow();
    await asReplica((trx) => trx.raw('truncate carton_sizes cascade').then(() => undefined));
    expect(await changed(brand.id, xmin)).to.equal(true);
    expect(await changed(other.id, xmin)).to.equal(true);
    expect(await changed(third.id, xmin), 'no rows of that brand went').to.equal(false);
    xmin = await xminNow();
    await db.transaction(async (trx) => {
      await trx.raw('set transaction isolation level repeatable read');
      await trx.raw('truncate carton_sizes cascade');
    });
    expect(await changed(third.id, xmin), 'a truncation that could not tell whose rows it removed').to.equal(true);
  });
});
