/**
 * The server process (`src/server/main.ts`) started before its database can
 * be served: Postgres stopped, silent, or up without the database (not yet
 * created, then not yet migrated). In a compose file or a cluster the API,
 * Postgres and the migrations start together, so the server must not depend
 * on winning that race: it listens at once, answers 503 with the contract's
 * error body on the API (and `/readyz` 503, `/healthz` 200), logs one line
 * per attempt with a capped exponential back-off, and serves by itself as
 * soon as the database can be served.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { POSTGRES_TIMEOUTS } from '../../src/db/connection/open-database.ts';
import { READINESS_BACKOFF } from '../../src/db/connection/schema-readiness.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { freePort } from '../support/free-port.ts';
import { spawnServer, type ServerProcess, type SpawnedServer } from '../support/server-process.ts';
import { waitFor } from '../support/wait-for.ts';
import { BRAND, CARTON_SIZES, catalogCluster, prepareCatalog, PROCESS_CURSOR_SECRET, timedGet } from './fault-support.ts';
import { LocalPostgres } from './local-postgres.ts';

/** Once the database can be served, the server must serve within the longest back-off plus a margin. */
const RECOVERY_MS = READINESS_BACKOFF.maxMs + 10_000;

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly attempt?: number;
  readonly retryInMs?: number;
  readonly source?: string;
}

function logLines(server: { stdout(): string }): LogLine[] {
  return server.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

const notReadyLines = (server: { stdout(): string }): LogLine[] => logLines(server).filter((line) => line.msg.startsWith('database not ready: '));

/** Waits for `count` "not ready" lines whose message matches `reason`. */
async function expectWaiting(server: ServerProcess, reason: RegExp, { count = 2, timeoutMs = 20_000 } = {}): Promise<LogLine[]> {
  return waitFor(async () => {
    const lines = notReadyLines(server).filter((line) => reason.test(line.msg));
    return lines.length >= count ? lines : false;
  }, { timeoutMs, intervalMs: 100, what: `${count} "database not ready" lines matching ${reason}:\n${server.stdout()}` });
}

/** While not ready: the API 503 with the contract's body and Retry-After, /readyz 503 "starting", /healthz 200. */
async function expectUnavailable(server: ServerProcess, key: string): Promise<void> {
  const list = await timedGet(`${server.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`, { key, timeoutMs: 5_000 });
  expect(list.status, JSON.stringify(list.body)).to.equal(503);
  expectErrorBody(list.body, 'internal_error', { details: 'forbidden' });
  expect(list.body.error).to.match(/cannot reach its database yet/);
  expect(Number(list.headers['retry-after'])).to.be.within(1, READINESS_BACKOFF.maxMs / 1000);
  // No key at all is the same 503: nothing can be checked yet.
  expect((await timedGet(`${server.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`, { timeoutMs: 5_000 })).status).to.equal(503);
  const ready = await timedGet(`${server.origin}/readyz`, { timeoutMs: 5_000 });
  expect(ready.status).to.equal(503);
  expect(ready.body).to.deep.equal({ status: 'unavailable', database: 'starting', redis: 'none' });
  const alive = await timedGet(`${server.origin}/healthz`, { timeoutMs: 5_000 });
  expect([alive.status, alive.body]).to.deep.equal([200, { status: 'ok' }]);
  const document = await timedGet(`${server.origin}${API_BASE_PATH}/openapi.json`, { timeoutMs: 5_000 });
  expect(document.status, 'the OpenAPI document needs no database').to.equal(200);
}

async function expectServes(server: ServerProcess, key: string): Promise<void> {
  const url = `${server.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`;
  const served = await waitFor(async () => {
    const response = await timedGet(url, { key, timeoutMs: 15_000 });
    return response.status === 200 ? response : false;
  }, { timeoutMs: RECOVERY_MS, intervalMs: 200, what: `the server to serve:\n${server.stdout()}` });
  expect(served.body.totalItems).to.equal(CARTON_SIZES);
  expect((await timedGet(`${server.origin}/readyz`)).body).to.deep.equal({ status: 'ok', database: 'ready', redis: 'none' });
  expect(logLines(server).filter((line) => line.msg === 'database ready: schema read and current, serving')).to.have.length(1);
}

/** The back-off: one line per attempt, in order, the wait doubling from the first, capped. */
function expectBackoff(lines: readonly LogLine[]): void {
  lines.forEach((line, i) => {
    expect(line.attempt, line.msg).to.equal(lines[0]!.attempt! + i);
    expect(line.retryInMs, line.msg).to.equal(Math.min(READINESS_BACKOFF.firstMs * 2 ** (line.attempt! - 1), READINESS_BACKOFF.maxMs));
  });
}

// Database-free: every case runs on a cluster of the test's own, so the gate's Postgres run leaves it out.
describeDatabaseFree?.('faults: the server starts before its database can be served', function () {
  this.timeout(120_000);
  let cluster: LocalPostgres;
  let key: string;
  const spawned: SpawnedServer[] = [];
  const spawn = (databaseUrl: string): Promise<ServerProcess> => {
    const server = spawnServer({ env: { DATABASE_URL: databaseUrl, CURSOR_SECRET: PROCESS_CURSOR_SECRET }, until: 'listening' });
    spawned.push(server);
    return server.started;
  };

  before(async () => {
    ({ cluster, key } = await catalogCluster());
  });
  afterEach(async () => {
    await Promise.all(spawned.splice(0).map((server) => server.dispose()));
  });
  after(async () => {
    await cluster?.destroy();
  });

  it('listens at once while Postgres is stopped, answers 503, retries with back-off, and serves once Postgres starts', async () => {
    await cluster.stop({ mode: 'fast' });
    const server = await spawn(cluster.url);
    const waiting = await expectWaiting(server, new RegExp(`^database not ready: cannot read the schema: connect ECONNREFUSED 127\\.0\\.0\\.1:${cluster.port}; trying again in [0-9.]+ s$`), { count: 3 });
    expectBackoff(waiting);
    // Before them, only an attempt whose refusal the server did not see within the connect limit (a machine
    // too busy to run it): it says so. Every attempt is logged, from the first.
    const earlier = notReadyLines(server).filter((line) => line.attempt! < waiting[0]!.attempt!);
    expect(earlier.map((line) => line.attempt)).to.deep.equal(Array.from({ length: earlier.length }, (_, i) => i + 1));
    for (const line of earlier) expect(line.msg).to.match(/^database not ready: Postgres did not answer: timed out after \d+ s; trying again in [0-9.]+ s$/);
    await expectUnavailable(server, key);
    expect(logLines(server).filter((line) => line.source === 'knex'), 'one line per attempt: knex does not repeat it').to.deep.equal([]);

    await cluster.start();
    await expectServes(server, key);
  });

  it('waits for a Postgres that accepts connections and never answers, within the connect limit per attempt', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    const silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    try {
      const server = await spawn(`postgres://postgres@127.0.0.1:${silentPort}/postgres`);
      await expectUnavailable(server, key);
      const [line] = await expectWaiting(server, new RegExp(`^database not ready: Postgres did not answer: timed out after ${POSTGRES_TIMEOUTS.connectMs / 1000} s; trying again in 0\\.5 s$`), { count: 1, timeoutMs: POSTGRES_TIMEOUTS.connectMs + 15_000 });
      expect(line!.msg, 'not the misleading "pool is probably full"').not.to.match(/pool is probably full/);
      expect(sockets.size, 'it did try to connect').to.be.at.least(1);
      await expectUnavailable(server, key);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('waits for a database created after it started (then for its migrations), on a cluster of its own', async () => {
    const admin = new URL(cluster.url);
    const name = `bcat_start_${process.pid}_${randomBytes(4).toString('hex')}`;
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const sql = async (statement: string): Promise<void> => {
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    try {
      const server = await spawn(url.toString());
      await expectWaiting(server, new RegExp(`^database not ready: cannot read the schema: database "${name}" does not exist; trying again in`));
      await expectUnavailable(server, key);

      await sql(`create database "${name}"`);
      await expectWaiting(server, /^database not ready: the database has no schema yet: run `npm run db:migrate`; trying again in/, { count: 1 });
      await expectUnavailable(server, key);

      const catalog = await prepareCatalog(url.toString());
      await expectServes(server, catalog.key);
    } finally {
      await Promise.all(spawned.splice(0).map((server) => server.dispose()));
      await sql(`drop database if exists "${name}" with (force)`);
    }
  });
});
