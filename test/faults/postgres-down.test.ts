/**
 * Postgres stops under traffic (a clean `fast` shutdown, and `immediate`: every
 * Postgres process killed) and comes back, with the real app serving on a
 * throwaway cluster of its own. While it is down every request answers fast
 * with a 503 `internal_error` and `Retry-After` (CONTRACT.md §4), `/readyz`
 * says so, and once it is back the app serves again by itself, without a
 * restart.
 */
import { expect } from 'chai';
import { POSTGRES_TIMEOUTS } from '../../src/db/connection/open-database.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../src/server/middleware/write-error.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../src/engine/request/api-error.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import {
  BRAND,
  CARTON_SIZES,
  catalogCluster,
  PROCESS_CURSOR_SECRET,
  startAppServer,
  timedGet,
  withTimeout,
  type AppServer,
  type TimedResponse,
} from './fault-support.ts';
import { spawnServer } from '../support/server-process.ts';
import { LocalPostgres, type StopMode } from './local-postgres.ts';
import { describeDatabaseFree } from '../support/database-free.ts';

/** No request may take longer than this while Postgres is down: a refused connection fails at once; the 2 s acquire limit plus a margin. */
const OUTAGE_ANSWER_MS = 5_000;
/**
 * While Postgres is frozen only the client-side query timeout (5 s) ends a
 * query, after at most the acquire limit (2 s) for a connection: the 7 s of
 * open-database.ts, plus a margin for a busy machine.
 */
const FROZEN_ANSWER_MS = POSTGRES_TIMEOUTS.acquireMs + POSTGRES_TIMEOUTS.queryMs + 1_500;
/** A request that has no answer by then has hung. */
const HANG_MS = 25_000;
/** The app must serve again this soon after Postgres is back. */
const RECOVERY_MS = 15_000;

interface Outcome extends TimedResponse {
  /** Sent after the cluster had stopped (and before it started again). */
  readonly duringOutage: boolean;
}

/** CONTRACT.md §4: a 503 `internal_error` with `Retry-After` and the error body (no details: nothing to quote). */
function expectOutageAnswer(response: TimedResponse): void {
  expect(response.status, `status of an answer while Postgres is down: ${JSON.stringify(response.body)}`).to.equal(503);
  expectErrorBody(response.body, 'internal_error', { details: 'forbidden' });
  expect(response.body.error).to.equal(DATABASE_UNAVAILABLE_MESSAGE);
  expect(response.headers['retry-after']).to.equal(String(DATABASE_RETRY_AFTER_SECONDS));
}

describeDatabaseFree?.('faults: Postgres goes down under traffic and comes back', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;
  let key: string;
  let server: AppServer;

  before(async () => {
    ({ cluster, key } = await catalogCluster());
    server = await startAppServer({ url: cluster.url, poolMax: 4 });
  });
  after(async () => {
    await server?.close();
    await cluster?.destroy();
  });

  const list = (): Promise<TimedResponse> => server.api(`/brands/${BRAND}/carton-sizes?limit=5`, { key, timeoutMs: HANG_MS });

  async function expectServing(what: string): Promise<void> {
    const answers = await Promise.all(Array.from({ length: 8 }, list));
    for (const answer of answers) {
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).to.equal(200);
      expect(answer.body.totalItems).to.equal(CARTON_SIZES);
      expect(answer.body.items).to.have.length(5);
    }
  }

  for (const mode of ['fast', 'immediate'] as const satisfies readonly StopMode[]) {
    it(`answers every request fast while Postgres is stopped (${mode}), reports it on /readyz, and serves again once it is back`, async () => {
      await expectServing('before the outage'); // the pool holds open connections now
      expect((await server.get('/readyz')).body).to.include({ status: 'ok', database: 'ready' });

      // Two streams of requests; the cluster stops while they run.
      const outcomes: Outcome[] = [];
      let down = false;
      let running = true;
      const stream = async (): Promise<void> => {
        while (running) {
          const sentWhileDown = down;
          const response = await list();
          outcomes.push({ ...response, duringOutage: sentWhileDown && down });
          await sleep(25);
        }
      };
      const traffic = Promise.all([stream(), stream()]);
      await waitFor(async () => outcomes.length >= 4, { timeoutMs: 10_000, intervalMs: 10, what: 'traffic before Postgres stops' });
      await cluster.stop({ mode });
      down = true;

      // Probes while it is down.
      await sleep(300);
      const ready = await server.get('/readyz', { timeoutMs: HANG_MS });
      const health = await server.get('/healthz', { timeoutMs: HANG_MS });
      await sleep(1200);
      running = false;
      await traffic;

      expect(ready.status, `/readyz while Postgres is down: ${JSON.stringify(ready.body)}`).to.equal(503);
      expect(ready.body).to.include({ status: 'unavailable', database: 'down', redis: 'none' });
      expect(ready.ms, '/readyz answers within its 2 s check').to.be.below(3000);
      expect(health.status, '/healthz: the process still serves HTTP').to.equal(200);

      const outage = outcomes.filter((o) => o.duringOutage);
      expect(outage.length, 'requests sent while Postgres was down').to.be.at.least(4);
      for (const outcome of outage) expectOutageAnswer(outcome);
      for (const outcome of outcomes) {
        expect(outcome.ms, `a request took ${Math.round(outcome.ms)} ms (status ${outcome.status})`).to.be.below(OUTAGE_ANSWER_MS);
        if (outcome.status !== 200) expectOutageAnswer(outcome);
      }
      const failedIds = new Set(outage.map((o) => o.headers['x-request-id'] as string));
      const logged = server.logs.filter((line) => line.msg === 'database unavailable' && line.level === 40 && failedIds.has(line.requestId as string));
      expect(logged.length, 'each 503 is logged as a warning with its request id').to.equal(failedIds.size);
      expect(server.logs.filter((line) => line.msg === 'unexpected error'), 'no 500').to.deep.equal([]);

      // Back, on the same port: the same app serves again, without a restart.
      await cluster.start();
      const back = performance.now();
      await waitFor(async () => (await list()).status === 200, { timeoutMs: RECOVERY_MS, intervalMs: 100, what: `the app to serve again after a ${mode} stop` });
      const recoveredMs = performance.now() - back;
      expect(recoveredMs).to.be.below(RECOVERY_MS);
      await expectServing('after Postgres is back'); // no dead connection left in the pool
      const readyAgain = await server.get('/readyz');
      expect(readyAgain.status).to.equal(200);
      expect(readyAgain.body).to.include({ status: 'ok', database: 'ready' });
    });
  }

  it('answers within the client query timeout while Postgres is frozen (SIGSTOP, as behind a partition), and serves again once it runs', async () => {
    await expectServing('before the freeze');
    cluster.freeze();
    let outcomes: TimedResponse[];
    let ready: TimedResponse;
    let health: TimedResponse;
    try {
      await sleep(200);
      // More requests than the pool holds: some take a pooled (now silent) connection, some must connect.
      const requests = Array.from({ length: 6 }, list);
      ready = await server.get('/readyz', { timeoutMs: HANG_MS });
      health = await server.get('/healthz', { timeoutMs: HANG_MS });
      outcomes = await Promise.all(requests);
    } finally {
      cluster.thaw();
    }
    expect(ready.status, `/readyz while Postgres is frozen: ${JSON.stringify(ready.body)}`).to.equal(503);
    expect(ready.body).to.include({ status: 'unavailable', database: 'down' });
    expect(ready.ms, '/readyz gives up after its 2 s check').to.be.below(3000);
    expect(health.status).to.equal(200);
    for (const outcome of outcomes) {
      expectOutageAnswer(outcome);
      // Nothing answers, so the server-side statement timeout cannot fire: the client-side query timeout (5 s) bounds it.
      expect(outcome.ms, `a request took ${Math.round(outcome.ms)} ms`).to.be.below(FROZEN_ANSWER_MS);
    }

    await waitFor(async () => (await list()).status === 200, { timeoutMs: RECOVERY_MS, intervalMs: 100, what: 'the app to serve again after the freeze' });
    await expectServing('after the freeze');
    expect((await server.get('/readyz')).status).to.equal(200);
  });

  it('keeps stdout to JSON lines (the server process) while Postgres goes down and comes back', async () => {
    const run = spawnServer({ env: { DATABASE_URL: cluster.url, CURSOR_SECRET: PROCESS_CURSOR_SECRET, LOG_LEVEL: 'info' } });
    const child = await run.started;
    try {
      const url = `${child.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`;
      expect((await timedGet(url, { key })).status).to.equal(200);
      await cluster.stop({ mode: 'fast' });
      for (let i = 0; i < 3; i++) expectOutageAnswer(await timedGet(url, { key, timeoutMs: HANG_MS }));
      await cluster.start();
      await waitFor(async () => (await timedGet(url, { key, timeoutMs: HANG_MS })).status === 200, { timeoutMs: RECOVERY_MS, what: 'the server process to serve again' });
      child.child.kill('SIGTERM');
      const exit = await withTimeout(child.exited, 15_000, 'the server process to exit');
      expect(exit.code).to.equal(0);
    } finally {
      await child.dispose();
      await cluster.start();
    }
    const lines = child.stdout().split('\n').filter((line) => line !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(lines.some((line) => line.includes('"database unavailable"')), 'the 503s are logged').to.equal(true);
    expect(notJson, `stdout lines that are not JSON (README: "Logs are JSON lines on stdout"):\n${notJson.slice(0, 5).join('\n')}`).to.deep.equal([]);
  });
});
