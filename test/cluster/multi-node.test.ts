/**
 * Scale out, for real on this machine: a Postgres primary and a streaming
 * replica of it (throwaway clusters of the test's own, made with initdb and
 * pg_basebackup -R), two API server processes on loopback ports reading from
 * the replica and sharing one Redis (REDIS_URL), and `npm run start:cluster`.
 * It shows that reads are served by the replica, that two instances together
 * allow a key exactly its rate limit, that cursors and revocations work from
 * one instance to the other, that stopping the replica under traffic fails no
 * request (reads move to the primary and come back), and that the cluster's
 * workers share one rate limit and stop cleanly on SIGTERM.
 *
 * It runs when REDIS_URL is set (CI's Postgres and Redis run), and needs what
 * test/faults needs: the Postgres server binaries, the postgres user and root.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import { insertRecords } from '../../src/db/insert-records.ts';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { createKey, revokeKey } from '../../src/server/auth/key-admin.ts';
import {
  BRAND,
  CARTON_SIZES,
  catalogCluster,
  PROCESS_CURSOR_SECRET,
  registry,
  timedGet,
  withTimeout,
  type TimedResponse,
} from '../faults/fault-support.ts';
import { spawnServer, type ServerProcess, type SpawnedServer } from '../support/server-process.ts';
import { LocalPostgres } from '../faults/local-postgres.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { freePort } from '../support/free-port.ts';
import { redisNumber } from '../support/local-redis.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import {
  bytesWritten,
  childProcesses,
  readCounts,
  spawnCluster,
  waitUntilGone,
  watchReplication,
  type ClusterProcess,
  type ReadCounts,
  type Replication,
} from './multi-node-support.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

const REDIS_URL = process.env.REDIS_URL;
/** The instances' rate limit in the tests that count it: a window far longer than the test. */
const LIMIT = 20;
const LIMIT_WINDOW_SECONDS = 3600;
/** Where the server keeps its rate-limit counters in Redis (rate-limiter.ts's default prefix), one per key id. */
const RATE_LIMIT_PREFIX = 'bcat:rl';
/** A revocation must reach every instance's key cache within this. */
const REVOCATION_MS = 2_000;
/** A replica that answers again takes reads again within this (it is probed every 5 s). */
const REPLICA_RETURN_MS = 15_000;
/** A request with no answer by then has hung. */
const HANG_MS = 20_000;

const CARTONS = `/brands/${BRAND}/carton-sizes`;

if (REDIS_URL) describe('cluster: two instances on a Postgres primary and its streaming replica, sharing one Redis', function () {
  this.timeout(60_000);
  const redisUrl = REDIS_URL;
  let primary: LocalPostgres;
  let replica: LocalPostgres;
  let admin: Knex;
  let replication: Replication;
  /** Carton ids in list order (created_at, id), read from the primary. */
  let cartonIds: string[];
  const spawned: SpawnedServer[] = [];
  /** A service limit no test reaches: the rate limit's test gives its key a limit of its own. */
  let instances: ServerProcess[];
  const keyIds: string[] = [];

  function instanceEnv({ points }: { points: number }): Record<string, string> {
    return {
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: replica.url,
      REDIS_URL: redisUrl,
      CURSOR_SECRET: PROCESS_CURSOR_SECRET,
      RATE_LIMIT_POINTS: String(points),
      RATE_LIMIT_WINDOW_SECONDS: String(LIMIT_WINDOW_SECONDS),
      // Long enough that only a revocation notice can end a cached key within the test.
      KEY_CACHE_SECONDS: '60',
      // The instances (three at most, with the walk's) and start:cluster's workers share the primary's 40 connections.
      DATABASE_POOL_MAX: '4',
      // The 401s of the revocation test must not trip the per-client guard shared in Redis.
      AUTH_FAILURE_LIMIT: '1000000',
      LOG_LEVEL: 'info',
    };
  }

  /** A fresh key for the brand, made on the primary: rate limits count per key, so no other test's requests count against it. */
  async function freshKey({ rateLimit = null }: { rateLimit?: number | null } = {}): Promise<{ id: string; key: string }> {
    const made = await createKey(admin, { brands: [BRAND], global: false, expiresAt: null, rateLimit });
    keyIds.push(made.id);
    return made;
  }

  const api = (server: ServerProcess, path: string, key: string): Promise<TimedResponse> =>
    timedGet(`${server.origin}${API_BASE_PATH}${path}`, { key, timeoutMs: HANG_MS });

  /** Both instances ready, counting rate limits in Redis (not in process), with the replica in the turn. */
  async function expectReady(servers: readonly ServerProcess[]): Promise<void> {
    for (const server of servers) {
      await waitFor(async () => {
        const ready = await timedGet(`${server.origin}/readyz`, { timeoutMs: HANG_MS });
        return ready.status === 200 && ready.body.redis === 'ready' && ready.body.replicas?.available === 1;
      }, { timeoutMs: 20_000, intervalMs: 100, what: `${server.origin}/readyz to report Redis ready and the replica available` });
    }
  }

  before(async function () {
    this.timeout(90_000);
    const made = await catalogCluster();
    primary = made.cluster;
    replica = await LocalPostgres.replicaOf(primary);
    await replica.start();
    admin = openPostgres({ url: primary.url, poolMax: 2, boundStatements: false }).db;
    replication = watchReplication({ primaryUrl: primary.url, replicaUrl: replica.url });
    const brand = (await admin('brands').where({ slug: BRAND }).first('id')) as { id: string };
    cartonIds = ((await admin('carton_sizes').where({ brand_id: brand.id }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id')) as { id: string }[]).map((row) => row.id);
    expect(cartonIds).to.have.length(CARTON_SIZES);
    await replication.caughtUp();
    // Both start at once: each takes seconds on a busy machine, mostly loading.
    const runs = [0, 1].map(() => spawnServer({ env: instanceEnv({ points: 100_000 }), timeoutMs: 75_000 }));
    spawned.push(...runs);
    instances = await Promise.all(runs.map((run) => run.started));
    await expectReady(instances);
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all(spawned.map((run) => run.dispose()));
    await replication?.resumeReplay().catch(() => undefined);
    await replication?.close();
    await admin?.destroy();
    await replica?.destroy();
    await primary?.destroy();
    if (keyIds.length > 0) {
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
      redis.on('error', () => undefined);
      try {
        await redis.del(...keyIds.map((id) => `${RATE_LIMIT_PREFIX}:${id}`));
      } finally {
        redis.disconnect();
      }
    }
  });

  /** What failed, with the instances' log lines about replicas, for a failure's message. */
  const replicaLog = (servers: readonly ServerProcess[]): string => servers
    .map((server, i) => `instance ${i + 1}:\n${server.stdout().split('\n').filter((line) => /replica|error/i.test(line)).slice(-20).join('\n')}`)
    .join('\n');

  it('serves list and get requests from the replica: the replica lagging on purpose shows the data comes from it, and /metrics counts them there', async () => {
    const { key } = await freshKey();
    const before = await Promise.all(instances.map((server) => readCounts(server.origin)));
    const sent = [0, 0];
    const ask = async (i: number, path: string): Promise<TimedResponse> => {
      sent[i]! += 1;
      return api(instances[i]!, path, key);
    };

    // With replay paused the replica does not have a row the primary has: an answer without it came from the replica.
    const added = randomUUID();
    try {
      await replication.pauseReplay();
      try {
        const at = new Date().toISOString();
        await insertRecords({
          db: admin,
          resource: (await registry()).get('carton-sizes'),
          brandId: ((await admin('brands').where({ slug: BRAND }).first('id')) as { id: string }).id,
          records: [{ id: added, name: 'Carton added on the primary', lengthCm: '10.00', widthCm: '10.00', heightCm: '10.00', createdAt: at, updatedAt: at }],
        });
        expect(((await admin('carton_sizes').count({ n: '*' }).first()) as { n: string }).n, 'the primary has the new row').to.equal(String(CARTON_SIZES + 1));
        for (const i of [0, 1]) {
          const list = await ask(i, `${CARTONS}?limit=5`);
          expect(list.status, JSON.stringify(list.body)).to.equal(200);
          expect(list.body.totalItems, `instance ${i + 1}: the list is counted on the lagging replica`).to.equal(CARTON_SIZES);
          const missing = await ask(i, `${CARTONS}/${added}`);
          expect(missing.status, `instance ${i + 1}: the row the replica has not replayed yet`).to.equal(404);
          const present = await ask(i, `${CARTONS}/${cartonIds[3]}`);
          expect(present.status).to.equal(200);
          expect(present.body.id).to.equal(cartonIds[3]);
        }
      } finally {
        await replication.resumeReplay();
      }

      // Replayed: now the replica has it too.
      await replication.caughtUp();
      for (const i of [0, 1]) {
        const found = await ask(i, `${CARTONS}/${added}`);
        expect(found.status, `instance ${i + 1}: the row once replayed`).to.equal(200);
        expect(found.body.name).to.equal('Carton added on the primary');
        const list = await ask(i, `${CARTONS}?limit=5`);
        expect(list.body.totalItems).to.equal(CARTON_SIZES + 1);
      }

      const after = await Promise.all(instances.map((server) => readCounts(server.origin)));
      for (const i of [0, 1]) {
        expect(after[i]!.replica - before[i]!.replica, `instance ${i + 1}: requests whose reads ran on replica-1`).to.equal(sent[i]);
        expect(after[i]!.primary - before[i]!.primary, `instance ${i + 1}: requests whose reads ran on the primary`).to.equal(0);
        expect(after[i]!.replicaAvailable).to.equal(1);
      }
    } finally {
      // Back to the catalog every other test expects.
      await admin('carton_sizes').where({ id: added }).delete();
      await replication.caughtUp();
    }
    expect((await api(instances[0]!, `${CARTONS}?limit=1`, key)).body.totalItems).to.equal(CARTON_SIZES);
  });

  it(`allows a key exactly ${LIMIT} requests across two instances together, not ${LIMIT} each, and answers the rest 429 with Retry-After`, async () => {
    // A limit of the key's own (CONTRACT.md §4), counted in the same counter as the service's limit, which
    // start:cluster's workers share below (RATE_LIMIT_POINTS): two instances fewer to start.
    const { id, key } = await freshKey({ rateLimit: LIMIT });
    const sendTo = (n: number): Promise<TimedResponse> => api(instances[n % 2]!, `${CARTONS}?limit=1`, key);
    // Ten one after another, alternating, then forty at once, alternating.
    const answers: { instance: number; response: TimedResponse }[] = [];
    for (let n = 0; n < 10; n++) answers.push({ instance: n % 2, response: await sendTo(n) });
    answers.push(...(await Promise.all(Array.from({ length: 40 }, async (_, k) => ({ instance: (10 + k) % 2, response: await sendTo(10 + k) })))));

    const byStatus = (status: number) => answers.filter((answer) => answer.response.status === status);
    const statuses = answers.map((answer) => answer.response.status);
    expect(byStatus(200).length, `200s of 50 requests: ${statuses.join(' ')}`).to.equal(LIMIT);
    expect(byStatus(429).length, `429s of 50 requests: ${statuses.join(' ')}`).to.equal(50 - LIMIT);
    // The first ten, alternating, were all allowed: each instance granted from the one budget.
    expect(answers.slice(0, 10).every((answer) => answer.response.status === 200)).to.equal(true);
    for (const instance of [0, 1]) {
      expect(byStatus(200).filter((answer) => answer.instance === instance).length, `200s from instance ${instance + 1}`).to.be.at.least(5);
      expect(byStatus(429).filter((answer) => answer.instance === instance).length, `429s from instance ${instance + 1}`).to.be.at.least(1);
    }
    for (const { response } of byStatus(429)) {
      expectErrorBody(response.body, 'rate_limited');
      const retryAfter = Number(response.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= LIMIT_WINDOW_SECONDS, `Retry-After: ${response.headers['retry-after']}`).to.equal(true);
      expect(response.headers['ratelimit-remaining']).to.equal('0');
    }
    for (const { response } of byStatus(200)) expect(response.headers['ratelimit-limit']).to.equal(String(LIMIT));
    // One counter in the one Redis, counted by both.
    expect(await redisNumber(redisUrl, `${RATE_LIMIT_PREFIX}:${id}`), 'the key\'s counter in Redis').to.equal(50);
  });

  it('walks a list with limit=7 taking each next page from the other instance: every record once, in order, totalItems constant', async () => {
    const { key } = await freshKey();
    const seen: string[] = [];
    let path: string | null = `${API_BASE_PATH}${CARTONS}?limit=7`;
    let pages = 0;
    while (path !== null) {
      const server = instances[pages % 2]!;
      const page = await timedGet(`${server.origin}${path}`, { key, timeoutMs: HANG_MS });
      expect(page.status, `page ${pages + 1} from instance ${(pages % 2) + 1}: ${JSON.stringify(page.body)}`).to.equal(200);
      expect(page.body.totalItems, `totalItems on page ${pages + 1}`).to.equal(CARTON_SIZES);
      expect(page.body.items.length).to.be.at.most(7);
      seen.push(...(page.body.items as { id: string }[]).map((item) => item.id));
      const link = page.headers.link as string | undefined;
      if (page.body.nextCursor === null) {
        expect(link, 'no Link on the last page').to.equal(undefined);
        path = null;
      } else {
        const next = /^<([^>]+)>; rel="next"$/.exec(link ?? '');
        expect(next, `Link header: ${link}`).to.not.equal(null);
        expect(new URL(next![1]!, 'http://x').searchParams.get('cursor')).to.equal(page.body.nextCursor);
        path = next![1]!;
      }
      pages += 1;
      expect(pages, 'pages').to.be.at.most(10);
    }
    expect(pages).to.equal(Math.ceil(CARTON_SIZES / 7));
    expect(seen, 'every record exactly once, in list order').to.deep.equal(cartonIds);
  });

  it("keeps a walk in step across copies: a later page is never read from a replica behind the walk's first page", async function () {
    this.timeout(90_000);
    const { key } = await freshKey();
    // An instance whose one "replica" is the primary: its pages come from a copy ahead of the real replica,
    // and its cursors carry the primary's WAL position.
    const ahead = spawnServer({ env: { ...instanceEnv({ points: 100_000 }), DATABASE_REPLICA_URLS: primary.url }, timeoutMs: 75_000 });
    spawned.push(ahead);
    const aheadServer = await ahead.started;
    const brandId = ((await admin('brands').where({ slug: BRAND }).first('id')) as { id: string }).id;
    // Between the 10th and 11th cartons in list order: on the second page of a walk of 7.
    const tenth = (await admin('carton_sizes').where({ id: cartonIds[9] }).first('created_at')) as { created_at: Date };
    const at = new Date(tenth.created_at.getTime() + 500).toISOString();
    const added = randomUUID();
    try {
      await replication.pauseReplay();
      await insertRecords({
        db: admin,
        resource: (await registry()).get('carton-sizes'),
        brandId,
        records: [{ id: added, name: 'Carton the replica has not replayed', lengthCm: '10.00', widthCm: '10.00', heightCm: '10.00', createdAt: at, updatedAt: at }],
      });
      const first = await timedGet(`${aheadServer.origin}${API_BASE_PATH}${CARTONS}?limit=7`, { key, timeoutMs: HANG_MS });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.totalItems, 'the first page was read where the new carton is').to.equal(CARTON_SIZES + 1);
      const before = await readCounts(instances[0]!.origin);
      // The next page from an instance whose replica lags: it must not read it there.
      const second = await timedGet(`${instances[0]!.origin}${API_BASE_PATH}${CARTONS}?limit=7&cursor=${encodeURIComponent(first.body.nextCursor as string)}`, { key, timeoutMs: HANG_MS });
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      const ids = (second.body.items as { id: string }[]).map((item) => item.id);
      expect(ids, 'the second page holds the carton its walk began with').to.deep.equal([...cartonIds.slice(7, 10), added, ...cartonIds.slice(10, 13)]);
      const after = await readCounts(instances[0]!.origin);
      expect(after.primary - before.primary, 'read from the primary, the copy that has the walk\'s data').to.equal(1);
      expect(after.replica - before.replica).to.equal(0);
      // A page without a mark to honour still reads from the replica, lagging as it is.
      const fresh = await api(instances[0]!, `${CARTONS}?limit=7`, key);
      expect(fresh.body.totalItems, 'a new walk on the lagging replica').to.equal(CARTON_SIZES);
    } finally {
      await replication.resumeReplay();
      await admin('carton_sizes').where({ id: added }).delete();
      await replication.caughtUp();
      await ahead.dispose();
    }
  });

  it(`refuses a revoked key on both instances within ${REVOCATION_MS} ms though each had it cached, and takes a new key on both at once: keys are checked on the primary`, async () => {
    const revoked = await freshKey();
    // Used on both: each instance now holds it in its key cache (KEY_CACHE_SECONDS=60).
    for (let n = 0; n < 4; n++) expect((await api(instances[n % 2]!, `${CARTONS}?limit=1`, revoked.key)).status).to.equal(200);

    // With replay paused the replica knows neither the new key nor the revocation: only the primary does.
    await replication.pauseReplay();
    try {
      const fresh = await freshKey();
      expect(await revokeKey(admin, revoked.id)).to.equal(true);
      const revokedAt = performance.now();
      const refusedAfter = await Promise.all(instances.map(async (server, i) => {
        for (;;) {
          const answer = await api(server, `${CARTONS}?limit=1`, revoked.key);
          const ms = performance.now() - revokedAt;
          if (answer.status === 401) {
            expectErrorBody(answer.body, 'unauthorized');
            return ms;
          }
          expect(answer.status, `instance ${i + 1}, the revoked key: ${JSON.stringify(answer.body)}`).to.equal(200);
          if (ms > REVOCATION_MS) throw new Error(`instance ${i + 1} still takes the revoked key ${Math.round(ms)} ms after the revocation`);
          await sleep(50);
        }
      }));
      for (const ms of refusedAfter) expect(ms).to.be.below(REVOCATION_MS);
      for (const [i, server] of instances.entries()) {
        const answer = await api(server, `${CARTONS}?limit=1`, fresh.key);
        expect(answer.status, `instance ${i + 1}, the new key on its first request: ${JSON.stringify(answer.body)}`).to.equal(200);
        expect((await api(server, `${CARTONS}?limit=1`, revoked.key)).status, `instance ${i + 1} refuses the revoked key again`).to.equal(401);
      }
    } finally {
      await replication.resumeReplay();
    }
    await replication.caughtUp();
  });

  it('fails no request while the replica is stopped under traffic (fast, then immediate): reads move to the primary, /readyz stays 200, and reads come back to the replica once it runs', async function () {
    this.timeout(90_000);
    const { key } = await freshKey();
    await expectReady(instances);

    interface Outcome {
      readonly instance: number;
      readonly path: string;
      readonly response?: TimedResponse;
      readonly error?: string;
      readonly replicaDown: boolean;
    }
    const outcomes: Outcome[] = [];
    let replicaDown = false;
    let running = true;
    // Four loops, two per instance, each a list page then a record by id, over and over.
    const loop = async (n: number): Promise<void> => {
      const instance = n % 2;
      for (let i = 0; running; i++) {
        const path = i % 2 === 0 ? `${CARTONS}?limit=5` : `${CARTONS}/${cartonIds[(n * 7 + i) % CARTON_SIZES]}`;
        const down = replicaDown;
        try {
          const response = await api(instances[instance]!, path, key);
          outcomes.push({ instance, path, response, replicaDown: down });
        } catch (error) {
          outcomes.push({ instance, path, error: (error as Error).message, replicaDown: down });
        }
        await sleep(10);
      }
    };
    const traffic = Promise.all([0, 1, 2, 3].map(loop));

    const counts = (): Promise<ReadCounts[]> => Promise.all(instances.map((server) => readCounts(server.origin)));
    const outageChecks: { mode: string; readyz: TimedResponse[]; during: ReadCounts[]; later: ReadCounts[]; returnedMs: number }[] = [];
    try {
      for (const mode of ['fast', 'immediate'] as const) {
        // Traffic on every loop first: a dozen answers more than so far.
        const before = outcomes.length;
        await waitFor(async () => outcomes.length >= before + 12, { timeoutMs: 10_000, intervalMs: 10, what: `traffic before the ${mode} stop` });
        await replica.stop({ mode });
        replicaDown = true;
        // Each instance takes the replica out at its first failed read.
        await waitFor(async () => (await counts()).every((count) => count.replicaAvailable === 0), { timeoutMs: 10_000, intervalMs: 100, what: `both instances to take the replica out after a ${mode} stop` });
        const during = await counts();
        await sleep(1000);
        const later = await counts();
        const readyz = await Promise.all(instances.map((server) => timedGet(`${server.origin}/readyz`, { timeoutMs: HANG_MS })));

        await replica.start();
        const startedAt = performance.now();
        replicaDown = false;
        // Back in the turn on both (the background probe), and serving reads there again.
        const back = await waitFor(async () => {
          const now = await counts();
          return now.every((count, i) => count.replicaAvailable === 1 && count.replica > later[i]!.replica) ? now : false;
        }, { timeoutMs: REPLICA_RETURN_MS + 5_000, intervalMs: 200, what: `reads to return to the replica after a ${mode} stop` });
        expect(back).to.have.length(2);
        outageChecks.push({ mode, readyz, during, later, returnedMs: performance.now() - startedAt });
      }
      await sleep(500);
    } finally {
      running = false;
      await withTimeout(traffic, HANG_MS + 5_000, 'the traffic loops to end');
      if (!replica.isRunning) await replica.start();
    }

    const failed = outcomes.filter((outcome) => outcome.response?.status !== 200);
    expect(failed.map((outcome) => `${outcome.instance + 1} ${outcome.path}: ${outcome.error ?? `${outcome.response!.status} ${JSON.stringify(outcome.response!.body)}`}`),
      `requests that failed (of ${outcomes.length}):\n${replicaLog(instances)}`).to.deep.equal([]);
    for (const outcome of outcomes) {
      const { body } = outcome.response!;
      if (outcome.path.includes('?')) expect(body.totalItems).to.equal(CARTON_SIZES);
      else expect(body.id).to.equal(outcome.path.slice(outcome.path.lastIndexOf('/') + 1));
    }
    expect(outcomes.filter((outcome) => outcome.replicaDown).length, 'requests answered while the replica was down').to.be.at.least(20);

    for (const { mode, readyz, during, later, returnedMs } of outageChecks) {
      for (const i of [0, 1]) {
        expect(later[i]!.replicaAvailable, `${mode}: instance ${i + 1}, bcat_db_read_target_available{target="replica-1"}`).to.equal(0);
        expect(later[i]!.replica - during[i]!.replica, `${mode}: instance ${i + 1}, reads on the stopped replica`).to.equal(0);
        expect(later[i]!.primary - during[i]!.primary, `${mode}: instance ${i + 1}, reads on the primary while the replica is down`).to.be.above(0);
        expect(readyz[i]!.status, `${mode}: instance ${i + 1} /readyz: ${JSON.stringify(readyz[i]!.body)}`).to.equal(200);
        expect(readyz[i]!.body).to.deep.include({ status: 'ok', database: 'ready', redis: 'ready', replicas: { available: 0, total: 1 } });
      }
      expect(returnedMs, `${mode}: ms from the replica's start to reads on it again`).to.be.below(REPLICA_RETURN_MS);
    }
  });

  describe('npm run start:cluster', () => {
    let cluster: ClusterProcess | null = null;
    after(async () => {
      await cluster?.dispose();
    });

    it(`serves with CLUSTER_WORKERS=2, its workers share one rate limit (exactly ${LIMIT} per key), and SIGTERM stops it with exit code 0`, async function () {
      this.timeout(90_000);
      // Only the two instances of the other tests keep running (the primary has 40 connections).
      await Promise.all(spawned.slice(2).map((run) => run.dispose()));
      const port = await freePort();
      cluster = spawnCluster({
        env: {
          DATABASE_URL: primary.url,
          REDIS_URL: redisUrl,
          CURSOR_SECRET: PROCESS_CURSOR_SECRET,
          PORT: String(port),
          CLUSTER_WORKERS: '2',
          RATE_LIMIT_POINTS: String(LIMIT),
          RATE_LIMIT_WINDOW_SECONDS: String(LIMIT_WINDOW_SECONDS),
          DATABASE_POOL_MAX: '4',
          LOG_LEVEL: 'info',
        },
      });
      const running = cluster;
      const exitedEarly = running.exited.then(({ code, signal }) => {
        throw new Error(`start:cluster exited (code ${code}, signal ${signal}):\n${running.output()}`);
      });
      exitedEarly.catch(() => undefined);
      await Promise.race([
        waitFor(async () => new Set(running.logLines('listening').map((line) => line.worker)).size === 2, { timeoutMs: 80_000, intervalMs: 100, what: `both workers to listen:\n${running.output()}` }),
        exitedEarly,
      ]);
      const workers = childProcesses(running.pid, 'main.ts');
      expect(workers, 'worker processes').to.have.length(2);
      const origin = `http://127.0.0.1:${port}`;
      // Connections go to the workers in turn: four answers in a row saying so cover both. A worker listens
      // before its database can be served (it answers 503 until then): /readyz says when it can.
      await waitFor(async () => {
        for (let n = 0; n < 4; n++) {
          const body = (await timedGet(`${origin}/readyz`)).body;
          if (body?.redis !== 'ready' || body?.database !== 'ready') return false;
        }
        return true;
      }, { timeoutMs: 20_000, what: 'both workers to be ready and count in Redis' });

      const { id, key } = await freshKey();
      const written = workers.map(bytesWritten);
      // Each request on a connection of its own: the cluster hands connections to its workers in turn.
      const send = (): Promise<TimedResponse> => timedGet(`${origin}${API_BASE_PATH}${CARTONS}?limit=1`, { key, timeoutMs: HANG_MS });
      const answers: TimedResponse[] = [];
      for (let n = 0; n < 10; n++) answers.push(await send());
      answers.push(...(await Promise.all(Array.from({ length: 40 }, send))));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200).length, `200s of 50: ${statuses.join(' ')}`).to.equal(LIMIT);
      expect(statuses.filter((status) => status === 429).length, `429s of 50: ${statuses.join(' ')}`).to.equal(50 - LIMIT);
      expect(await redisNumber(redisUrl, `${RATE_LIMIT_PREFIX}:${id}`), 'the key\'s counter in Redis').to.equal(50);
      // Both workers answered some of them (an idle worker writes nothing: no response, no log line).
      const wrote = workers.map((pid, i) => bytesWritten(pid) - written[i]!);
      for (const [i, bytes] of wrote.entries()) expect(bytes, `bytes worker ${i + 1} wrote during the requests`).to.be.above(2_000);

      running.child.kill('SIGTERM');
      const exit = await withTimeout(running.exited, 30_000, `start:cluster to exit after SIGTERM:\n${running.output()}`);
      expect(exit, running.output()).to.deep.equal({ code: 0, signal: null });
      await waitUntilGone(workers, 5_000);
      expect(workers.filter(isProcessRunning)).to.deep.equal([]);
    });

    it('refuses to start without REDIS_URL: exit code 1 and the reason', async function () {
      this.timeout(60_000);
      const refused = spawnCluster({ env: { DATABASE_URL: primary.url, CURSOR_SECRET: PROCESS_CURSOR_SECRET, PORT: String(await freePort()), CLUSTER_WORKERS: '2' } });
      try {
        const exit = await withTimeout(refused.exited, 50_000, 'start:cluster without REDIS_URL to exit');
        expect(exit, refused.output()).to.deep.equal({ code: 1, signal: null });
        expect(refused.output()).to.include('Could not start: start:cluster needs REDIS_URL');
      } finally {
        await refused.dispose();
      }
    });
  });
});
