import { expect } from 'chai';
import pg from 'pg';
import { seededRandom } from '../../../tools/shared/seeded-random.ts';
import { createBrand, createTestKey } from '../../support/fixtures.ts';
import { newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { brandStates, SyncModel } from '../../support/sync-model.ts';
import { testDatabase } from '../../support/test-database.ts';
import { secondConnection } from '../../support/second-connection.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { waitFor } from '../../support/wait-for.ts';

/** Seeds of the test; SYNC_MODEL_SEEDS raises it for a long run. */
const SEEDS = Math.min(Number(process.env.SYNC_MODEL_SEEDS ?? 3), 200);

/**
 * Waits, commits and instance restarts interleaved (CONTRACT.md §7): two
 * instances serve the followers, each call goes to either at random; writers
 * commit in bursts with quiet spells between (so waits time out, and the
 * instance answers with the token it was sent, live-changes.ts); and now and
 * then an instance stops (answering every wait at once) and a new one takes
 * its place. Every batch ends as §6 promises, whichever instance and
 * whatever token answered it, and once the writers stop every copy equals
 * the database. Real Postgres only (PGlite has one connection).
 */
if (process.env.DATABASE_URL) describe('live changes: waits, commits and instance restarts interleaved (Postgres)', function () {
  this.timeout(120_000 + SEEDS * 20_000);
  const instances: TestServer[] = [];
  before(async function () {
    this.timeout(180_000);
    instances.push(await startTestServer(), await startTestServer());
  });
  after(() => Promise.all(instances.map((server) => server.close())));

  it(`every waited batch ends as §6 promises across restarts, and every copy equals the database at the end (${SEEDS} seeds)`, async () => {
    const brand = await createBrand();
    const other = await createBrand();
    const { key } = await createTestKey({ brands: [brand.slug] });
    const path = `/brands/${brand.slug}/carton-sizes`;
    const connections = await Promise.all(Array.from({ length: 6 }, () => secondConnection({ lockTimeout: '100ms' })));
    const [reader, ...rest] = connections as [pg.Client, ...pg.Client[]];
    const readers = rest.slice(0, 2);
    const writers = rest.slice(2);
    let restarts = 0;
    let emptyBatches = 0;
    let lost = 0;
    try {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const random = seededRandom(seed * 7);
        const db = (await testDatabase()).db;
        await db('carton_sizes').whereIn('brand_id', [brand.id, other.id]).delete();
        const ids = ((await db('carton_sizes').insert([1, 2, 3].map((n) => ({ brand_id: brand.id, name: `r${n}` }))).returning('id')) as { id: string }[]).map((row) => row.id);
        const model = new SyncModel(brand.id, other.id, ids);
        const copies: SyncCopy[] = [newCopy(), newCopy()];
        for (const copy of copies) await syncBatch({ server: instances[0]!, key, path, copy });
        let following = true;
        const followers = copies.map(async (copy, c) => {
          for (let batch = 1; following; batch++) {
            const before = await brandStates(readers[c]!, brand.id);
            const server = instances[Math.floor(random() * instances.length)]!;
            let answered;
            try {
              answered = await syncBatch({ server, key, path, copy, wait: 1, limit: 1 + Math.floor(random() * 4) });
            } catch (error) {
              // A call to an instance that is going away may lose its connection: a client calls again, with the same token.
              if (error instanceof Error && error.name === 'AssertionError') throw error;
              lost += 1;
              continue;
            }
            if (answered.items.length === 0) emptyBatches += 1;
            model.expectBatchEnd({ copy, before, label: `seed ${seed}, client ${c}, batch ${batch}` });
          }
        });
        // Bursts of writes, quiet spells in which waits time out, and a restart of one instance in some spells.
        for (let burst = 0; burst < 3; burst++) {
          let writing = true;
          const running = writers.map((client, i) => model.writer({ client, random: seededRandom(seed * 100 + burst * 10 + i), stop: () => !writing }));
          await waitFor(async () => model.written.length >= (burst + 1) * 6 || undefined, { intervalMs: 20, timeoutMs: 10_000, what: 'writes' });
          writing = false;
          await Promise.all(running);
          await new Promise((resolve) => setTimeout(resolve, 1_200 + Math.floor(random() * 800)));
          if (random() < 0.7) {
            const at = Math.floor(random() * instances.length);
            const stopping = instances[at]!;
            instances[at] = await startTestServer();
            await stopping.close();
            restarts += 1;
          }
        }
        const expected = (await brandStates(reader, brand.id)).states;
        const held = (copy: SyncCopy): Map<string, unknown> => new Map([...copy.records].map(([id, record]) => [id, record.name]));
        const equal = waitFor(async () => copies.every((copy) => JSON.stringify([...held(copy)].sort()) === JSON.stringify([...expected].sort())) || undefined, {
          intervalMs: 20, timeoutMs: 15_000, what: `seed ${seed}: every copy equal to the database`,
        });
        // A follower that failed says why, rather than the copies only never catching up.
        await Promise.race([equal, Promise.all(followers).then(() => { throw new Error('a follower stopped'); })]);
        following = false;
        await Promise.all(followers);
        for (const copy of copies) expect(held(copy), `seed ${seed}`).to.deep.equal(expected);
      }
    } finally {
      await Promise.all(connections.map((client) => client.end()));
    }
    // The test met what it is about: instances replaced mid-follow, and waits that ended with nothing.
    expect(restarts, 'restarts').to.be.at.least(1);
    expect(emptyBatches, 'waits that timed out').to.be.at.least(1);
    console.log(`      ${restarts} restarts, ${emptyBatches} empty batches, ${lost} calls lost to a stopping instance`);
  });
});
