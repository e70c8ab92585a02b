import { expect } from 'chai';
import pg from 'pg';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';
import { createBrand, createTestKey } from '../../support/fixtures.ts';
import { newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { brandStates, SyncModel } from '../../support/sync-model.ts';
import { testDatabase } from '../../support/test-database.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { useServer } from '../../support/use-server.ts';
import { waitFor } from '../../support/wait-for.ts';

/** Seeds of the model test; SYNC_MODEL_SEEDS raises it for a long run. */
const SEEDS = Math.min(Number(process.env.SYNC_MODEL_SEEDS ?? 6), 500);
/** How late a change may reach a waiting client after its commit (CONTRACT.md §7: within a second), with slack for a loaded CI machine. */
const BOUND_MS = 1_000 + 2_000;

/**
 * The feed's model test (test/engine/read/read-changes.test.ts) with clients
 * that only ever call with `wait` (CONTRACT.md §7): writers on their own
 * connections run random inserts, updates, brand moves and deletes in
 * transactions of random length (late commits among them), while three
 * clients follow the feed. Every batch ends as §6 promises, and once the
 * writers stop, every client's copy equals the database within the bound of
 * the last commit, measured here. Real Postgres only (PGlite has one connection).
 */
if (process.env.DATABASE_URL) describe('live changes: model with writers and waiting clients (Postgres)', function () {
  this.timeout(60_000 + SEEDS * 8_000);
  const server = useServer({}, { startTimeoutMs: 180_000 });

  const connect = (): Promise<pg.Client> => secondConnection({ lockTimeout: '100ms' });

  it(`every waited batch ends as §6 promises, and every copy equals the database within ${BOUND_MS} ms of the last commit (${SEEDS} seeds)`, async () => {
    const brand = await createBrand();
    const other = await createBrand();
    const { key } = await createTestKey({ brands: [brand.slug] });
    const path = `/brands/${brand.slug}/carton-sizes`;
    const connections = await Promise.all(Array.from({ length: 7 }, connect));
    // A reader per client: a snapshot is one transaction on one connection.
    const [reader, ...rest] = connections;
    const readers = rest.slice(0, 3);
    const writers = rest.slice(3);
    const lags: number[] = [];
    try {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const db = (await testDatabase()).db;
        await db('carton_sizes').whereIn('brand_id', [brand.id, other.id]).delete();
        const ids = ((await db('carton_sizes').insert([1, 2, 3, 4].map((n) => ({ brand_id: brand.id, name: `s${n}` }))).returning('id')) as { id: string }[]).map((row) => row.id);
        const model = new SyncModel(brand.id, other.id, ids);
        const copies: SyncCopy[] = [newCopy(), newCopy(), newCopy()];
        for (const copy of copies) await syncBatch({ server, key, path, copy });
        let writing = true;
        let following = true;
        const running = writers.map((client, i) => model.writer({ client, random: seededRandom(seed * 100 + i), stop: () => !writing }));
        const random = seededRandom(seed);
        const followers = copies.map(async (copy, c) => {
          for (let batch = 1; following; batch++) {
            const before = await brandStates(readers[c]!, brand.id);
            await syncBatch({ server, key, path, copy, wait: 1, limit: 1 + Math.floor(random() * 6) });
            model.expectBatchEnd({ copy, before, label: `seed ${seed}, client ${c}, batch ${batch}` });
          }
        });
        await waitFor(async () => model.written.length >= 20 || undefined, { intervalMs: 20, timeoutMs: 10_000, what: 'twenty writes' });
        writing = false;
        await Promise.all(running);
        const lastCommit = Date.now();
        const expected = (await brandStates(reader!, brand.id)).states;
        const held = (copy: SyncCopy): Map<string, unknown> => new Map([...copy.records].map(([id, record]) => [id, record.name]));
        await waitFor(async () => copies.every((copy) => JSON.stringify([...held(copy)].sort()) === JSON.stringify([...expected].sort())) || undefined, {
          intervalMs: 10, timeoutMs: 10_000, what: `seed ${seed}: every copy equal to the database`,
        });
        lags.push(Date.now() - lastCommit);
        following = false;
        await Promise.all(followers);
        for (const copy of copies) expect(held(copy), `seed ${seed}`).to.deep.equal(expected);
      }
    } finally {
      await Promise.all(connections.map((client) => client.end()));
    }
    console.log(`      last commit to every copy equal, ms: ${lags.join(', ')}`);
    expect(Math.max(...lags), `last commit to every copy equal, ms: ${lags.join(', ')}`).to.be.below(BOUND_MS);
  });
});
