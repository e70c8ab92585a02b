import { expect } from 'chai';
import pg from 'pg';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { newCopy, syncBatch } from '../../support/sync-client.ts';
import { testDatabase } from '../../support/test-database.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { useServer } from '../../support/use-server.ts';
import { waitFor } from '../../support/wait-for.ts';

/**
 * The feed while a transaction stays open beside the writers (a session idle
 * in transaction, a long report): it holds every snapshot's xmin back, and a
 * token of the xmin alone made every batch return, again, every change since
 * that transaction began, so a follower that waits for an empty batch never
 * waited (CONTRACT.md §6, §7). A token is the batch's whole snapshot
 * (src/engine/compile/snapshot-text.ts): a batch returns what the last one
 * did not see, no more, and a transaction the token saw running wakes a
 * waiter when it commits. Real Postgres only: PGlite has one connection.
 */
const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.('the changes feed beside a transaction left open (Postgres)', function () {
  this.timeout(60_000);
  let brand: { id: string; slug: string };
  let key: string;
  let holder: pg.Client;
  const path = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
    holder = await secondConnection();
    // An id of its own, so every snapshot from now on has its xmin at or below it.
    await holder.query('begin');
    await holder.query('select pg_current_xact_id()');
  });
  afterEach(async () => {
    await holder.end();
  });

  const ids = (batch: { items: { id: string }[] }): string[] => batch.items.map((item) => item.id).sort();

  it('returns each change once: the batch after a token is empty, the one after a commit holds only that commit', async () => {
    const rows = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const copy = newCopy();
    await syncBatch({ server, key, path, copy });
    expect(copy.records.size).to.equal(2);
    expect((await syncBatch({ server, key, path, copy })).items, 'nothing since the full sync').to.deep.equal([]);
    const [c] = await insert('carton-sizes', brand.id, [{ name: 'C' }]);
    expect(ids(await syncBatch({ server, key, path, copy })), 'only C, not A and B again').to.deep.equal([c!.id]);
    await (await testDatabase()).db.raw('update carton_sizes set name = ? where id = ?', ['A2', rows[0]!.id]);
    expect(ids(await syncBatch({ server, key, path, copy }))).to.deep.equal([rows[0]!.id]);
    expect((await syncBatch({ server, key, path, copy })).items).to.deep.equal([]);
  });

  it('a transaction the token saw running comes in the next batch when it commits, and wakes a request waiting on that token', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const late = await secondConnection();
    try {
      await late.query('begin');
      const { rows: [row] } = await late.query('insert into carton_sizes (brand_id, name) values ($1, $2) returning id::text', [brand.id, 'late']);
      const copy = newCopy();
      await syncBatch({ server, key, path, copy });
      // A waited call on that token: nothing committed since, so it waits (it would have answered at once, again, with A).
      const answer = syncBatch({ server, key, path, copy, wait: 20 });
      await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the request waiting' });
      await late.query('commit');
      const committed = Date.now();
      // Nothing newer than the token's xmax committed: only the end of a transaction it saw running can wake it.
      expect(ids(await answer)).to.deep.equal([row.id]);
      expect(Date.now() - committed, 'commit to answer').to.be.below(2000);
      expect((await syncBatch({ server, key, path, copy })).items).to.deep.equal([]);
    } finally {
      await late.end();
    }
  });

  it('a waited call with nothing to read waits its time out, however long the transaction has been open', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const copy = newCopy();
    await syncBatch({ server, key, path, copy });
    const started = Date.now();
    const batch = await syncBatch({ server, key, path, copy, wait: 1 });
    expect(batch.items).to.deep.equal([]);
    expect(Date.now() - started, 'held, not answered at once with the same rows').to.be.at.least(900);
    expect(copy.token).to.be.a('string');
    expect((await syncBatch({ server, key, path, copy })).items, 'the timed-out token holds too').to.deep.equal([]);
  });
});
