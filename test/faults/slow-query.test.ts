/**
 * A slow query, made real: another session holds an exclusive lock on
 * `carton_sizes`, so the API's list query waits in Postgres. The request must
 * end with a 500 once the 4 s statement timeout fires (not hang), Postgres
 * must have cancelled the statement, and every connection must be back in the
 * pool: with a pool of 2 and more blocked requests than that, those that get
 * no connection within the 2 s acquire limit end sooner as a 503 with
 * `Retry-After` (CONTRACT.md §4), and normal requests all succeed once the
 * lock is gone.
 */
import { expect } from 'chai';
import { POSTGRES_TIMEOUTS } from '../../src/db/connection/open-database.ts';
import { poolUsage } from '../../src/db/connection/postgres-pool.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { waitFor } from '../support/wait-for.ts';
import { BRAND, CARTON_SIZES, catalogCluster, lockTable, openObserver, startAppServer, type AppServer, type Observer, type TableLock, type TimedResponse } from './fault-support.ts';
import { LocalPostgres } from './local-postgres.ts';
import { describeDatabaseFree } from '../support/database-free.ts';

const POOL_MAX = 2;
/**
 * The longest a blocked request may take: a wait for a pooled connection (2 s)
 * and one statement (4 s), plus a margin.
 */
const BLOCKED_ANSWER_MS = POSTGRES_TIMEOUTS.acquireMs + POSTGRES_TIMEOUTS.statementMs + 2_000;
const HANG_MS = 40_000;

describeDatabaseFree?.('faults: a slow query (a table locked by another session)', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;
  let observer: Observer;
  let key: string;
  let server: AppServer;
  let lock: TableLock | null = null;

  before(async () => {
    ({ cluster, key } = await catalogCluster());
    observer = openObserver(cluster.url);
    server = await startAppServer({ url: cluster.url, poolMax: POOL_MAX });
  });
  afterEach(async () => {
    await lock?.release();
    lock = null;
  });
  after(async () => {
    await server?.close();
    await observer?.close();
    await cluster?.destroy();
  });

  const pool = (): { used: number; pending: number } => poolUsage(server.db)!;
  const list = (query: string): Promise<TimedResponse> => server.api(`/brands/${BRAND}/carton-sizes${query}`, { key, timeoutMs: HANG_MS });

  it(`ends blocked requests with 500 internal_error at the statement timeout (503 with Retry-After for those that get no connection in time), more of them than the pool (${POOL_MAX}) holds, then serves normally`, async () => {
    expect((await list('')).status).to.equal(200);
    lock = await lockTable(cluster.url, 'carton_sizes');

    // Distinct filters, so no two requests share a count (they would otherwise wait on each other's).
    const blocked = Array.from({ length: POOL_MAX + 3 }, (_, i) => list(`?name=${encodeURIComponent(`Carton ${i}`)}`));
    await waitFor(async () => (await observer.apiSessions({ waitingOnLock: true })) >= 1, { timeoutMs: 5_000, what: 'a query of the API to wait on the lock' });
    expect(await observer.apiSessions(), 'API sessions in Postgres: never more than the pool').to.be.at.most(POOL_MAX);
    const answers = await Promise.all(blocked);

    for (const answer of answers) {
      expect([500, 503], JSON.stringify(answer.body)).to.include(answer.status);
      if (answer.status === 500) {
        expectErrorBody(answer.body, 'internal_error', { details: 'required' });
        expect(answer.body.details.requestId).to.equal(answer.headers['x-request-id']);
      } else {
        // The pool had no connection for it within the acquire limit: shed, not queued behind the blocked ones.
        expectErrorBody(answer.body, 'internal_error', { details: 'forbidden' });
        expect(answer.headers['retry-after']).to.match(/^\d+$/);
      }
      expect(answer.ms, `a blocked request took ${Math.round(answer.ms)} ms`).to.be.below(BLOCKED_ANSWER_MS);
    }
    expect(answers.filter((answer) => answer.status === 500).length, 'the requests that got a connection end at the statement timeout').to.be.at.least(1);
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest, 'the statement timeout, not an earlier error, ended the blocked statements').to.be.above(POSTGRES_TIMEOUTS.statementMs - 500);
    const errors = server.logs.filter((line) => line.msg === 'unexpected error').map((line) => JSON.stringify(line.err));
    // Postgres's own message (57014): the server cancelled the statement, not only the client gave up.
    expect(errors.some((e) => /canceling statement due to statement timeout/.test(e)), `the log names the statement timeout:\n${errors.join('\n')}`).to.equal(true);

    await lock.release();
    lock = null;
    // Once the lock is gone, whatever still ran finishes, and every connection is back in the pool.
    await waitFor(async () => pool().used === 0 && pool().pending === 0, { timeoutMs: 2_000, what: 'every connection to be returned' });
    const normal = await Promise.all(Array.from({ length: POOL_MAX * 4 }, () => list('?limit=3')));
    for (const answer of normal) {
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.totalItems).to.equal(CARTON_SIZES);
      expect(answer.ms, 'a normal request after the outage').to.be.below(2_000);
    }
    expect(pool().used).to.equal(0);
    expect(await observer.apiSessions()).to.be.at.most(POOL_MAX);
  });

  it('leaves no connection busy for a shared count nobody waits for once identical blocked first pages have answered (pool of 10)', async () => {
    // The README's default pool: enough connections for every request's page and count to reach Postgres.
    const wide = await startAppServer({ url: cluster.url, poolMax: 10 });
    try {
      const first = (): Promise<TimedResponse> => wide.api(`/brands/${BRAND}/carton-sizes?limit=7`, { key, timeoutMs: HANG_MS });
      expect((await first()).status).to.equal(200);
      lock = await lockTable(cluster.url, 'carton_sizes');
      // Identical first pages share one count (count-batcher.ts); those arriving during it wait for the next one.
      const blocked = Array.from({ length: 3 }, first);
      await waitFor(async () => (await observer.apiSessions({ waitingOnLock: true })) >= 2, { timeoutMs: 5_000, what: 'queries of the API to wait on the lock' });
      const answers = await Promise.all(blocked);
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).to.equal(500);
        expectErrorBody(answer.body, 'internal_error', { details: 'required' });
        expect(answer.ms, `a blocked request took ${Math.round(answer.ms)} ms`).to.be.below(BLOCKED_ANSWER_MS);
      }
      // Every request has its answer: nothing should hold a connection or wait on the lock for them any more
      // (the cancelled statements may take a moment to leave; the check below says what is left after 5 s).
      let left = { waiting: -1, used: -1 };
      await waitFor(async () => {
        left = { waiting: await observer.apiSessions({ waitingOnLock: true }), used: poolUsage(wide.db)!.used };
        return left.waiting === 0 && left.used === 0;
      }, { timeoutMs: 5_000, intervalMs: 50 }).catch(() => undefined);
      expect(left, 'API statements still waiting on the lock, and pooled connections still lent out, after every request answered').to.deep.equal({ waiting: 0, used: 0 });
    } finally {
      await lock?.release();
      lock = null;
      const after = await Promise.all(Array.from({ length: 4 }, () => wide.api(`/brands/${BRAND}/carton-sizes?limit=7`, { key, timeoutMs: HANG_MS })));
      await wide.close();
      for (const answer of after) expect(answer.status, 'a normal request once the lock is gone').to.equal(200);
    }
  });
});
