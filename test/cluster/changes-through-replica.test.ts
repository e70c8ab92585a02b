import { expect } from 'chai';
import type { Knex } from 'knex';
import pg from 'pg';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { seededRandom } from '../../tools/shared/seeded-random.ts';
import { catalogCluster, PROCESS_CURSOR_SECRET } from '../faults/fault-support.ts';
import { canRunLocalPostgres, LocalPostgres } from '../faults/local-postgres.ts';
import { spawnServer, type ServerProcess, type SpawnedServer } from '../support/server-process.ts';
import { newCopy, syncBatch, type SyncCopy } from '../support/sync-client.ts';
import { brandStates, SyncModel } from '../support/sync-model.ts';
import { requestAt } from '../support/test-server.ts';
import { waitFor } from '../support/wait-for.ts';
import { watchReplication, type Replication } from './multi-node-support.ts';

/**
 * The changes feed's model test (test/engine/read/read-changes.test.ts)
 * through a streaming replica: two instances read from a replica of the
 * primary the writers write to, and the client takes each batch from the
 * other instance. A batch's first page is read from the replica, so the state
 * it is checked against is the replica's just before it; after the writers
 * stop and the replica catches up, one more batch equals the primary.
 */
const SEEDS = Number(process.env.SYNC_MODEL_SEEDS ?? 20);

// On the Postgres run of the suite only: the embedded run would repeat it for nothing.
if (process.env.DATABASE_URL && canRunLocalPostgres()) describe('the changes feed through a streaming replica (Postgres)', function () {
  this.timeout(120_000 + SEEDS * 5_000);
  let primary: LocalPostgres;
  let replica: LocalPostgres;
  let admin: Knex;
  let replication: Replication;
  const spawned: SpawnedServer[] = [];
  let instances: ServerProcess[];

  before(async function () {
    this.timeout(120_000);
    primary = (await catalogCluster()).cluster;
    replica = await LocalPostgres.replicaOf(primary);
    await replica.start();
    admin = openPostgres({ url: primary.url, poolMax: 2, boundStatements: false }).db;
    replication = watchReplication({ primaryUrl: primary.url, replicaUrl: replica.url });
    const env = instanceEnv();
    const runs = [spawnServer({ env, timeoutMs: 75_000 }), spawnServer({ env, timeoutMs: 75_000 })];
    spawned.push(...runs);
    instances = await Promise.all(runs.map((run) => run.started));
    for (const instance of instances) {
      await waitFor(async () => ((await (await fetch(`${instance.origin}/readyz`)).json()) as { replicas?: { available: number } }).replicas?.available === 1, {
        timeoutMs: 20_000, intervalMs: 100, what: 'the replica in the instance\'s turn',
      });
    }
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(spawned.map((run) => run.dispose()));
    await replication?.close();
    await admin?.destroy();
    await replica?.destroy();
    await primary?.destroy();
  });

  function instanceEnv(): Record<string, string> {
    return {
      DATABASE_URL: primary.url, DATABASE_REPLICA_URLS: replica.url, CURSOR_SECRET: PROCESS_CURSOR_SECRET,
      DATABASE_POOL_MAX: '4', LOG_LEVEL: 'warn', RATE_LIMIT_POINTS: '1000000',
    };
  }

  async function connect(url: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("set lock_timeout = '100ms'");
    return client;
  }

  it(`model: writers on the primary, batches read from the replica by either instance; every batch ends as it began or newer, the last one equal to the primary (${SEEDS} seeds)`, async () => {
    const [a, b] = (await admin('brands').insert([{ slug: 'model-a', name: 'Model A' }, { slug: 'model-b', name: 'Model B' }]).returning('id')) as { id: string }[];
    const { key } = await createKey(admin, { brands: ['model-a'], global: false, expiresAt: null });
    const writers = await Promise.all([connect(primary.url), connect(primary.url), connect(primary.url)]);
    const reader = await connect(replica.url);
    const path = '/brands/model-a/carton-sizes';
    try {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const random = seededRandom(seed);
        await admin('carton_sizes').whereIn('brand_id', [a!.id, b!.id]).delete();
        const ids = ((await admin('carton_sizes').insert([1, 2, 3, 4, 5].map((n) => ({ brand_id: a!.id, name: `s${n}` }))).returning('id')) as { id: string }[]).map((row) => row.id);
        await replication.caughtUp();
        const model = new SyncModel(a!.id, b!.id, ids);
        let stopped = false;
        const running = writers.map((client, i) => model.writer({ client, random: seededRandom(seed * 100 + i), stop: () => stopped }));
        const copy: SyncCopy = newCopy();
        const until = Date.now() + 500;
        for (let batch = 1; Date.now() < until; batch++) {
          const server = { request: requestAt(instances[batch % 2]!.origin) };
          const before = await brandStates(reader, a!.id);
          // Every other batch waits (CONTRACT.md §7): a waited batch is a batch, whichever copy answers it.
          await syncBatch({ server, key, path, copy, limit: 1 + Math.floor(random() * 6), ...(batch % 2 === 0 ? { wait: 1 } : {}) });
          model.expectBatchEnd({ copy, before, label: `seed ${seed}, batch ${batch}` });
        }
        stopped = true;
        await Promise.all(running);
        await replication.caughtUp();
        await syncBatch({ server: { request: requestAt(instances[0]!.origin) }, key, path, copy, limit: 1 + Math.floor(random() * 6) });
        const held = new Map([...copy.records].map(([id, record]) => [id, record.name]));
        expect(held, `seed ${seed}`).to.deep.equal((await brandStates(writers[0]!, a!.id)).states);
      }
    } finally {
      await Promise.all([...writers, reader].map((client) => client.end()));
    }
  });

  it('a batch after a token is read from a copy no older than the last batch\'s: a client moved to a lagging replica never goes back in time', async function () {
    this.timeout(90_000);
    const [brand] = (await admin('brands').insert([{ slug: 'model-c', name: 'Model C' }]).returning('id')) as { id: string }[];
    const { key } = await createKey(admin, { brands: ['model-c'], global: false, expiresAt: null });
    const path = '/brands/model-c/carton-sizes';
    // An instance whose one "replica" is the primary: it reads a copy ahead of the real, paused, replica.
    const run = spawnServer({ env: { ...instanceEnv(), DATABASE_REPLICA_URLS: primary.url }, timeoutMs: 75_000 });
    spawned.push(run);
    const ahead = await run.started;
    const [row] = (await admin('carton_sizes').insert({ brand_id: brand!.id, name: 'w0' }).returning('id')) as { id: string }[];
    // An open transaction holds every snapshot's xmin below the writes that follow.
    const holder = await connect(primary.url);
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      await admin('carton_sizes').where({ id: row!.id }).update({ name: 'w1' });
      await replication.caughtUp();
      await replication.pauseReplay();
      await admin('carton_sizes').where({ id: row!.id }).update({ name: 'w2' });
      const copy = newCopy();
      await syncBatch({ server: { request: requestAt(ahead.origin) }, key, path, copy });
      expect(copy.records.get(row!.id)!.name).to.equal('w2');
      // The replica still has w1, written after the token's xmin: read there, the batch would hand it back.
      await syncBatch({ server: { request: requestAt(instances[0]!.origin) }, key, path, copy });
      expect(copy.records.get(row!.id)!.name, 'the copy went back to the replica\'s older state').to.equal('w2');
    } finally {
      await holder.query('rollback');
      await holder.end();
      await replication.resumeReplay();
    }
  });

  it('a waited batch woken by a commit reads a copy that has it: the replica is paused, the answer comes from a newer copy', async function () {
    this.timeout(60_000);
    const [brand] = (await admin('brands').insert([{ slug: 'live-a', name: 'Live A' }]).returning('id')) as { id: string }[];
    const { key } = await createKey(admin, { brands: ['live-a'], global: false, expiresAt: null });
    const path = '/brands/live-a/carton-sizes';
    await replication.caughtUp();
    const copy = newCopy();
    await syncBatch({ server: { request: requestAt(instances[0]!.origin) }, key, path, copy });
    await replication.pauseReplay();
    try {
      const answer = requestAt(instances[1]!.origin)(`${path}/changes?syncToken=${encodeURIComponent(copy.token!)}&wait=20`, { key });
      const [row] = (await admin('carton_sizes').insert({ brand_id: brand!.id, name: 'live' }).returning('id')) as { id: string }[];
      const committed = Date.now();
      const response = await answer;
      expect(response.status, response.text).to.equal(200);
      expect(response.body.items.map((item: { id: string }) => item.id)).to.deep.equal([row!.id]);
      expect(Date.now() - committed, 'commit to answer').to.be.below(3000);
    } finally {
      await replication.resumeReplay();
    }
  });

  it('SIGTERM answers every waiting request at once (empty batch, token) before the instance stops', async function () {
    this.timeout(90_000);
    await admin('brands').insert([{ slug: 'live-b', name: 'Live B' }]);
    const { key } = await createKey(admin, { brands: ['live-b'], global: false, expiresAt: null });
    const path = '/brands/live-b/carton-sizes';
    const run = spawnServer({ env: instanceEnv(), timeoutMs: 75_000 });
    spawned.push(run);
    const instance = await run.started;
    const request = requestAt(instance.origin);
    const copy = newCopy();
    await syncBatch({ server: { request }, key, path, copy });
    const url = `${path}/changes?syncToken=${encodeURIComponent(copy.token!)}&wait=60`;
    const answers = Array.from({ length: 10 }, () => request(url, { key }));
    const waiting = async (): Promise<number> => Number(/^bcat_live_waiting_requests (\d+)/m.exec(await (await fetch(`${instance.origin}/metrics`)).text())?.[1]);
    await waitFor(async () => (await waiting()) === 10, { timeoutMs: 20_000, intervalMs: 20, what: 'ten requests waiting' });
    expect((await request(url, { key })).status, 'the key\'s eleventh waiting request').to.equal(429);
    const stopped = Date.now();
    instance.child.kill('SIGTERM');
    for (const response of await Promise.all(answers)) {
      expect(response.status, response.text).to.equal(200);
      expect(response.body).to.include({ nextCursor: null });
      expect(response.body.items).to.deep.equal([]);
      expect(response.body.syncToken).to.be.a('string');
    }
    expect(Date.now() - stopped, 'SIGTERM to every answer').to.be.below(5000);
    expect((await instance.exited).code).to.equal(0);
  });
});
