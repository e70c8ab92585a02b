import { expect } from 'chai';
import pg from 'pg';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';
import { expectError } from '../../resources/helpers.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { listedRecords, newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { brandStates, SyncModel } from '../../support/sync-model.ts';
import { testDatabase } from '../../support/test-database.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { useServer } from '../../support/use-server.ts';

/**
 * The changes feed's guarantee against concurrent writers (CONTRACT.md §6),
 * over HTTP. It needs transactions that stay open while the client reads,
 * so a second connection: real Postgres only (PGlite has one connection).
 */
const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.('the changes feed with concurrent writers (Postgres)', function () {
  this.timeout(60_000);
  let brand: { id: string; slug: string };
  let other: { id: string; slug: string };
  let key: string;
  const path = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
    other = await createBrand('globex');
    await createTestKey({ brands: ['globex'] });
  });

  const connect = (): Promise<pg.Client> => secondConnection({ lockTimeout: '100ms' });

  /** Every record of the brand, as the list route gives them. */
  const listed = (): Promise<Map<string, unknown>> => listedRecords({ server, key, path });

  it('a transaction that began before a call and commits after it comes in the next batch', async () => {
    const [a, b] = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const late = await connect();
    try {
      await late.query('begin');
      await late.query('update carton_sizes set name = $1 where id = $2', ['A late', a!.id]);
      await late.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [brand.id, 'new late']);
      await late.query('delete from carton_sizes where id = $1', [b!.id]);
      const copy = newCopy();
      await syncBatch({ server, key, path, copy, limit: 1 });
      expect([...copy.records.values()].map((r: any) => r.name).sort()).to.deep.equal(['A', 'B']);
      // Later writers commit while the first is still open: the client sees them, and not the open one.
      const [c] = await insert('carton-sizes', brand.id, [{ name: 'C' }]);
      const seen = await syncBatch({ server, key, path, copy });
      // At least once: A and B may come again (a transaction of the database's own, such as an autoanalyze, may hold the xmin back).
      expect(seen.items.map((item) => item.id)).to.include(c!.id);
      expect([...copy.records.values()].map((r: any) => r.name).sort()).to.deep.equal(['A', 'B', 'C']);
      await late.query('commit');
      const after = await syncBatch({ server, key, path, copy });
      // C may come again (at least once: its transaction began while the late one was open); the late one's three changes come now.
      const late3 = after.items.filter((item) => item.id !== c!.id);
      expect(late3.map((item) => item.change).sort()).to.deep.equal(['delete', 'upsert', 'upsert']);
      expect(late3.find((item) => item.id === a!.id)!.record!.name).to.equal('A late');
      expect(late3.find((item) => item.id === b!.id)!.change).to.equal('delete');
      expect(copy.records).to.deep.equal(await listed());
    } finally {
      await late.end();
    }
  });

  it('a page of a batch read after a row changed does not return it twice, and the next batch has its last state', async () => {
    const rows = await insert('carton-sizes', brand.id, Array.from({ length: 6 }, (_, i) => ({ name: `R${i}` })));
    const copy = newCopy();
    const first = await server.request(`${path}/changes?limit=2`, { key });
    for (const row of rows) await (await testDatabase()).db.raw('update carton_sizes set name = ? where id = ?', ['changed', row.id]);
    const rest = await server.request(`${path}/changes?limit=10&cursor=${first.body.nextCursor}`, { key });
    const ids = [...first.body.items, ...rest.body.items].map((item: { id: string }) => item.id);
    expect(new Set(ids).size).to.equal(ids.length);
    copy.token = rest.body.syncToken;
    for (const item of [...first.body.items, ...rest.body.items]) copy.records.set(item.id, item.record);
    await syncBatch({ server, key, path, copy });
    expect(copy.records).to.deep.equal(await listed());
  });

  it('a TRUNCATE whose transaction began before a token was issued and commits after it: that token is 410, not silently stale', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const late = await connect();
    try {
      await late.query('begin');
      await late.query('select pg_current_xact_id()');
      const copy = newCopy();
      await syncBatch({ server, key, path, copy });
      await late.query('truncate carton_sizes cascade');
      await late.query('commit');
      expectError(await server.request(`${path}/changes?syncToken=${copy.token}`, { key }), 410, 'sync_token_expired');
      const fresh = newCopy();
      await syncBatch({ server, key, path, copy: fresh });
      expect(fresh.records).to.deep.equal(await listed());
    } finally {
      await late.end();
    }
  });

  it('after a TRUNCATE, while a transaction holds every snapshot\'s xmin below it, a full sync\'s token still works; a later TRUNCATE expires it', async () => {
    const holder = await connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      await (await testDatabase()).db.raw('truncate carton_sizes cascade');
      await insert('carton-sizes', brand.id, [{ name: 'A' }]);
      const copy = newCopy();
      await syncBatch({ server, key, path, copy });
      // The truncation is at or above the token's xmin, but the full sync saw it: not a 410 again (and again).
      await insert('carton-sizes', brand.id, [{ name: 'B' }]);
      await syncBatch({ server, key, path, copy });
      expect(copy.records).to.deep.equal(await listed());
      await (await testDatabase()).db.raw('truncate carton_sizes cascade');
      await insert('carton-sizes', brand.id, [{ name: 'C' }]);
      expectError(await server.request(`${path}/changes?syncToken=${copy.token}`, { key }), 410, 'sync_token_expired');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });

  /** Seeds of the model test: 20 in CI; SYNC_MODEL_SEEDS=500 for a long run. */
  const SEEDS = Number(process.env.SYNC_MODEL_SEEDS ?? 20);

  /** The model run: writers (in replica sessions when `replica`), batches of random sizes checked against the state before each. */
  async function modelRun({ seeds, replica }: { seeds: number; replica: boolean }): Promise<void> {
    const clients = await Promise.all([connect(), connect(), connect(), connect()]);
    const [reader, ...writers] = clients;
    if (replica) for (const writer of writers) await writer.query('set session_replication_role = replica');
    try {
      for (let seed = 1; seed <= seeds; seed++) {
        const random = seededRandom(seed);
        await (await testDatabase()).db.raw('delete from carton_sizes');
        const ids = (await insert('carton-sizes', brand.id, Array.from({ length: 5 }, (_, i) => ({ name: `s${i}` })))).map((r) => r.id as string);
        const model = new SyncModel(brand.id, other.id, ids);
        let stopped = false;
        const running = writers.map((client, i) => model.writer({ client, random: seededRandom(seed * 100 + i), stop: () => stopped }));
        const copy: SyncCopy = newCopy();
        const until = Date.now() + 700;
        for (let batch = 1; Date.now() < until; batch++) {
          const before = await brandStates(reader!, brand.id);
          await syncBatch({ server, key, path, copy, limit: 1 + Math.floor(random() * 6) });
          model.expectBatchEnd({ copy, before, label: `seed ${seed}, batch ${batch}` });
        }
        stopped = true;
        await Promise.all(running);
        await syncBatch({ server, key, path, copy, limit: 1 + Math.floor(random() * 6) });
        expect(copy.records, `seed ${seed}`).to.deep.equal(await listed());
      }
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  }

  it(`model: with writers in transactions of random length, every batch ends with each record as it was or newer, at most once, and the last one equal to the database (${SEEDS} seeds)`, async function () {
    this.timeout(30_000 + SEEDS * 3_000);
    await modelRun({ seeds: SEEDS, replica: false });
  });

  /** Fewer seeds: the same walk, only the writers' sessions differ. */
  const REPLICA_SEEDS = Math.max(1, Math.ceil(SEEDS / 4));

  it(`model: the same with writers in sessions with session_replication_role = replica (${REPLICA_SEEDS} seeds)`, async function () {
    this.timeout(30_000 + REPLICA_SEEDS * 3_000);
    await modelRun({ seeds: REPLICA_SEEDS, replica: true });
  });
});
