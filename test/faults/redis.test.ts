/**
 * Redis, for rate limits, down when the app starts and killed under traffic,
 * then started again on the same port: the full app on a Postgres and a
 * redis-server of the test's own. While Redis is down every request is served
 * (counted by the in-process insurance limiter) and `/readyz` stays 200 with
 * `redis: down`; once it is back, `/readyz` says `ready` and the counts land
 * in Redis again. (test/server/limits/rate-limiter.test.ts covers the limiter itself
 * and a Redis on a port that never comes back.)
 */
import { expect } from 'chai';
import { expectErrorBody } from '../support/error-body.ts';
import { freePort } from '../support/free-port.ts';
import { MAX_LEASE } from '../../src/server/limits/limit-leases.ts';
import { LocalRedis, redisNumber, waitUntilCountingInRedis } from '../support/local-redis.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { BRAND, catalogCluster, startAppServer, type AppServer, type TimedResponse } from './fault-support.ts';
import { LocalPostgres } from './local-postgres.ts';
import { describeDatabaseFree } from '../support/database-free.ts';

/** The limiter never waits on Redis for more than 500 ms (its command timeout): a request stays well under this. */
const ANSWER_MS = 1_500;
/** ioredis retries at most every 2 s: back in Redis well within this. */
const BACK_MS = 10_000;
const POINTS = 1000;

describeDatabaseFree?.('faults: Redis down at start and under traffic, then back', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;
  let key: string;
  let keyId: string;
  let redis: LocalRedis | null = null;
  let server: AppServer | null = null;

  before(async () => {
    ({ cluster, key, keyId } = await catalogCluster());
  });
  afterEach(async () => {
    await server?.close();
    server = null;
    await redis?.dispose();
    redis = null;
  });
  after(async () => {
    await cluster?.destroy();
  });

  const list = (app: AppServer): Promise<TimedResponse> => app.api(`/brands/${BRAND}/carton-sizes?limit=2`, { key, timeoutMs: 10_000 });
  const counted = (app: AppServer, url: string): Promise<number | null> => redisNumber(url, `${app.keyPrefix}:${keyId}`);

  async function expectServedWithoutRedis(app: AppServer, n: number): Promise<void> {
    const remaining: number[] = [];
    for (let i = 0; i < n; i++) {
      const answer = await list(app);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.ms, 'no request waits on a Redis that is down').to.be.below(ANSWER_MS);
      remaining.push(Number(answer.headers['ratelimit-remaining']));
    }
    // Still counted: by the in-process insurance limiter, one point per request.
    for (let i = 1; i < remaining.length; i++) expect(remaining[i], `RateLimit-Remaining: ${remaining.join(', ')}`).to.equal(remaining[i - 1]! - 1);
  }

  async function expectReady(app: AppServer, redisState: 'ready' | 'down'): Promise<void> {
    const ready = await app.get('/readyz', { timeoutMs: 5_000 });
    expect(ready.status, `/readyz: ${JSON.stringify(ready.body)}`).to.equal(200);
    expect(ready.body).to.deep.equal({ status: redisState === 'ready' ? 'ok' : 'degraded', database: 'ready', redis: redisState });
  }

  /** Redis is back: /readyz says so, and requests are counted in Redis again (it restarted empty). */
  async function expectBackInRedis(app: AppServer, url: string): Promise<void> {
    await waitFor(async () => (await app.get('/readyz')).body?.redis === 'ready', { timeoutMs: BACK_MS, intervalMs: 100, what: '/readyz to report Redis ready' });
    await expectReady(app, 'ready');
    await waitUntilCountingInRedis(app.limiter, url, BACK_MS);
    const before = (await counted(app, url)) ?? 0;
    const n = 4;
    for (let i = 0; i < n; i++) expect((await list(app)).status).to.equal(200);
    // One request may fall to the insurance limiter if its command times out on a busy machine; the rest count in Redis,
    // with the places the instance leases ahead once it knows the key has plenty left (limit-leases.ts).
    expect(await counted(app, url), 'requests counted in Redis again').to.be.within(before + n - 1, before + n + MAX_LEASE);
    expect(app.logs.some((line) => line.msg === 'redis is back: rate limits are shared again')).to.equal(true);
  }

  it('serves with the insurance limiter while Redis is down at start, and counts in Redis once it comes up', async () => {
    redis = new LocalRedis(await freePort()); // not started yet
    server = await startAppServer({ url: cluster.url, redisUrl: redis.url, rateLimitPoints: POINTS });
    expect(server.limiter.backend).to.equal('redis');

    await expectServedWithoutRedis(server, 5);
    await expectReady(server, 'down');

    await redis.start();
    await expectBackInRedis(server, redis.url);
  });

  it('keeps serving while Redis is killed under traffic, reports it on /readyz, and counts in Redis again once it is back', async () => {
    redis = new LocalRedis(await freePort());
    await redis.start();
    const app = await startAppServer({ url: cluster.url, redisUrl: redis.url, rateLimitPoints: POINTS });
    server = app;
    await waitUntilCountingInRedis(app.limiter, redis.url);
    await expectReady(app, 'ready');
    for (let i = 0; i < 3; i++) expect((await list(app)).status).to.equal(200);
    // The three, and the places the instance leased ahead (limit-leases.ts).
    expect(await counted(app, redis.url), 'counted in Redis before the outage').to.be.within(3, 3 + MAX_LEASE);

    // Two streams of requests; Redis is killed while they run.
    const outcomes: TimedResponse[] = [];
    let running = true;
    const stream = async (): Promise<void> => {
      while (running) {
        outcomes.push(await list(app));
        await sleep(20);
      }
    };
    const traffic = Promise.all([stream(), stream()]);
    await waitFor(async () => outcomes.length >= 4, { timeoutMs: 10_000, intervalMs: 10, what: 'traffic before Redis is killed' });
    const redisUrl = redis.url;
    await redis.kill();
    await sleep(1000);
    const whileDown = await app.get('/readyz', { timeoutMs: 5_000 });
    running = false;
    await traffic;

    expect(outcomes.length).to.be.at.least(10);
    for (const outcome of outcomes) {
      if (outcome.status !== 200) expectErrorBody(outcome.body, 'internal_error');
      expect(outcome.status, JSON.stringify(outcome.body)).to.equal(200);
      expect(outcome.ms, 'no request hangs on a dead Redis').to.be.below(ANSWER_MS);
    }
    expect(whileDown.status, `/readyz while Redis is down: ${JSON.stringify(whileDown.body)}`).to.equal(200);
    expect(whileDown.body).to.deep.equal({ status: 'degraded', database: 'ready', redis: 'down' });
    await expectServedWithoutRedis(app, 3);
    const warnings = app.logs.filter((line) => /redis unreachable/.test(String(line.msg)));
    expect(warnings, 'one warning for the outage').to.have.length(1);

    await redis.start(); // the same port, empty: it keeps no data
    await expectBackInRedis(app, redisUrl);
  });
});
