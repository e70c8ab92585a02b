import { expect } from 'chai';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { seenNow, truncatedSince, truncationsOf } from '../../../src/engine/compile/truncation-queries.ts';
import { insert, resetToBrands } from '../../support/fixtures.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { testDatabase } from '../../support/test-database.ts';

/** What a changes batch asks of the records of TRUNCATEs (truncation-queries.ts), run on the database. */
describe('truncation queries', () => {
  const one = async (fragment: SqlFragment): Promise<unknown> => {
    const { db } = await testDatabase();
    const { rows } = (await db.raw(`select ${fragment.sql}`, fragment.bindings as never)) as { rows: Record<string, unknown>[] };
    return Object.values(rows[0]!)[0];
  };
  const xmin = async (): Promise<string> => ((await (await testDatabase()).db.raw('select pg_snapshot_xmin(pg_current_snapshot())::text as x')) as { rows: { x: string }[] }).rows[0]!.x;

  it('asks each table once, for the brand\'s truncations and those of every brand', () => {
    const from = truncationsOf({ tables: ['carton_sizes', 'products', 'carton_sizes'], brandId: 'b' });
    expect(from.sql).to.match(/x\."table_name" in \(\?, \?\) and/);
    expect(from.bindings).to.deep.equal(['carton_sizes', 'products', 'b']);
  });

  it('tells a TRUNCATE since the token, unless the token saw it, and only of the tables asked', async () => {
    const { db } = await testDatabase();
    const [acme] = await resetToBrands('acme');
    await insert('carton-sizes', acme.id, [{ name: 'a' }]);
    const since = await xmin();
    const cartons = truncationsOf({ tables: ['carton_sizes'], brandId: acme.id });
    expect(await one(truncatedSince({ from: cartons, since, seen: [] }))).to.equal(false);
    await db.raw('truncate carton_sizes cascade');
    const [{ x: truncation }] = ((await db.raw(`select sync_xid::text as x from sync_truncations where table_name = 'carton_sizes' order by sync_xid desc limit 1`)) as { rows: { x: string }[] }).rows as [{ x: string }];
    expect(await one(truncatedSince({ from: cartons, since, seen: [] }))).to.equal(true);
    expect(await one(truncatedSince({ from: cartons, since, seen: [truncation] })), 'seen by the token').to.equal(false);
    expect(await one(truncatedSince({ from: cartons, since: String(BigInt(truncation) + 1n), seen: [] })), 'before the token').to.equal(false);
    expect(await one(truncatedSince({ from: truncationsOf({ tables: ['products'], brandId: acme.id }), since, seen: [] })), 'another table').to.equal(false);
  });

  // One connection (PGlite, or Postgres with nothing else open): a TRUNCATE committed is below every later snapshot's xmin.
  (process.env.DATABASE_URL ? null : it)?.('lists no truncation once every transaction has ended: the token\'s xmin covers them', async () => {
    const { db } = await testDatabase();
    const [acme] = await resetToBrands('acme');
    await insert('carton-sizes', acme.id, [{ name: 'a' }]);
    await db.raw('truncate carton_sizes cascade');
    expect(((await db.raw('select count(*)::int as n from sync_truncations')) as { rows: { n: number }[] }).rows[0]!.n, 'recorded').to.equal(1);
    expect(await one(seenNow(truncationsOf({ tables: ['carton_sizes'], brandId: acme.id })))).to.equal('');
  });

  (process.env.DATABASE_URL ? it : null)?.('lists the truncations a snapshot sees at or above its xmin: those committed while an older transaction is open (Postgres)', async () => {
    const { db } = await testDatabase();
    const [acme] = await resetToBrands('acme');
    const holder = await secondConnection();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      // A TRUNCATE is recorded when it removed rows.
      await insert('carton-sizes', acme.id, [{ name: 'a' }]);
      await insert('products', acme.id, [{ code: 'TEE' }]);
      await db.raw('truncate carton_sizes cascade');
      await db.raw('truncate products cascade');
      const ids = ((await db.raw(`select sync_xid::text as x from sync_truncations where table_name = 'carton_sizes'`)) as { rows: { x: string }[] }).rows.map((row) => row.x);
      expect(ids).to.have.length(1);
      const seen = String(await one(seenNow(truncationsOf({ tables: ['carton_sizes'], brandId: acme.id })))).split(',');
      expect(seen).to.include.members(ids);
      const products = ((await db.raw(`select sync_xid::text as x from sync_truncations where table_name = 'products'`)) as { rows: { x: string }[] }).rows.map((row) => row.x);
      expect(products).to.have.length(1);
      expect(seen, 'another table\'s').to.not.include(products[0]);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });
});
