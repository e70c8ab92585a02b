import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { expect } from 'chai';
import { MAX_LEASE } from '../../../src/server/limits/limit-leases.ts';
import { createRateLimiter, type RateLimiter } from '../../../src/server/limits/rate-limiter.ts';
import { createTestKey, resetToBrands } from '../../support/fixtures.ts';
import { startTestServer, type TestResponse } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { freePort } from '../../support/free-port.ts';
import { LocalRedis, onPath, redisKeys, redisNumber, waitUntilCountingInRedis } from '../../support/local-redis.ts';
import { sleep, waitFor } from '../../support/wait-for.ts';

/** A closed port: nothing listens on 127.0.0.1:1. */
const DEAD_REDIS = 'redis://127.0.0.1:1';

async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await body();
  return { value, ms: performance.now() - started };
}

describe('createRateLimiter', () => {
  const limiters: RateLimiter[] = [];
  const make = (options: { points: number; windowSeconds: number; redisUrl: string | null; keyPrefix?: string }): RateLimiter => {
    const limiter = createRateLimiter({ ...options, keyPrefix: options.keyPrefix ?? `bcat:test:${randomBytes(6).toString('hex')}`, logger: collectingLogger().logger });
    limiters.push(limiter);
    return limiter;
  };
  afterEach(async () => {
    for (const limiter of limiters.splice(0)) await limiter.close();
  });

  it('allows `points` requests per key in the window, then refuses with whole seconds to wait', async () => {
    const limiter = make({ points: 3, windowSeconds: 60, redisUrl: null });
    expect(limiter.backend).to.equal('memory');
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('key-a'));
    expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(decisions.every((d) => d.limit === 3)).to.equal(true);
    const refused = decisions[3]!;
    expect(Number.isInteger(refused.resetSeconds)).to.equal(true);
    expect(refused.resetSeconds).to.be.within(0, 60);
    expect((await limiter.consume('key-b')).allowed, 'another key has its own budget').to.equal(true);
  });

  it('decides requests made at once exactly: the first `points` are allowed, each with its own remaining count', async () => {
    const limiter = make({ points: 5, windowSeconds: 60, redisUrl: null });
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.consume('key-a')));
    expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d.remaining)).to.deep.equal([4, 3, 2, 1, 0, 0, 0, 0]);
  });

  it('keeps the budgets of two limiters apart (each server prefix its own)', async () => {
    const one = make({ points: 1, windowSeconds: 60, redisUrl: null });
    const two = make({ points: 1, windowSeconds: 60, redisUrl: null });
    expect((await one.consume('k')).allowed).to.equal(true);
    expect((await one.consume('k')).allowed).to.equal(false);
    expect((await two.consume('k')).allowed).to.equal(true);
  });

  it('answers at once from the insurance limiter when Redis is down, with the same budget', async () => {
    const limiter = make({ points: 3, windowSeconds: 60, redisUrl: DEAD_REDIS });
    expect(limiter.backend).to.equal('redis');
    const allowed: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const { value, ms } = await timed(() => limiter.consume('key-a'));
      expect(ms, `consume ${i + 1} took ${ms} ms`).to.be.below(1000);
      allowed.push(value.allowed);
    }
    expect(allowed).to.deep.equal([true, true, true, false]);
  });

  it('waits at most 500 ms for a Redis that accepts connections but never answers, then counts in process', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    try {
      const limiter = make({ points: 1, windowSeconds: 60, redisUrl: `redis://127.0.0.1:${port}` });
      const first = await timed(() => limiter.consume('key-a'));
      expect(first.ms, `the first count took ${first.ms} ms`).to.be.within(400, 2000);
      expect(first.value.allowed).to.equal(true);
      const second = await timed(() => limiter.consume('key-a'));
      expect(second.ms, 'later counts do not wait for Redis').to.be.below(400);
      expect(second.value.allowed, 'the insurance limiter keeps the budget').to.equal(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  if (process.env.REDIS_URL) {
    const redisUrl = process.env.REDIS_URL;
    /** Two limiters sharing a prefix on Redis, as two instances do, both counting there, and a fresh key. */
    const twoInstances = async (points: number) => {
      const keyPrefix = `bcat:test:${randomBytes(6).toString('hex')}`;
      const one = make({ points, windowSeconds: 60, redisUrl, keyPrefix });
      const two = make({ points, windowSeconds: 60, redisUrl, keyPrefix });
      await waitUntilCountingInRedis(one, redisUrl);
      await waitUntilCountingInRedis(two, redisUrl);
      return { one, two, keyPrefix, key: randomUUID() };
    };

    it('counts a new limiter\'s first requests in Redis, where the rest will be counted, not in process', async () => {
      // Five fresh limiters, as five servers just started: a request made at once, then one a moment later.
      for (let i = 0; i < 5; i++) {
        const keyPrefix = `bcat:test:${randomBytes(6).toString('hex')}`;
        const limiter = make({ points: 1, windowSeconds: 60, redisUrl, keyPrefix });
        expect((await limiter.consume('k')).allowed).to.equal(true);
        expect(await redisNumber(redisUrl, `${keyPrefix}:k`), 'the first request is in the Redis count').to.equal(1);
        await sleep(10);
        expect((await limiter.consume('k')).allowed, 'the second request is over the limit of 1').to.equal(false);
      }
    });

    it('counts a new limiter\'s first failed authentication in Redis too', async () => {
      const keyPrefix = `bcat:test:${randomBytes(6).toString('hex')}`;
      const limiter = createRateLimiter({ points: 10, windowSeconds: 60, redisUrl, keyPrefix, authFailurePoints: 5, logger: collectingLogger().logger });
      limiters.push(limiter);
      await limiter.authFailures.recordFailure('198.51.100.7');
      expect(await redisNumber(redisUrl, `${keyPrefix}:authfail:198.51.100.7`)).to.equal(1);
    });

    it('shares one budget between instances on the same Redis and prefix (REDIS_URL)', async () => {
      const { one, two, keyPrefix, key } = await twoInstances(3);
      expect((await one.consume(key)).allowed).to.equal(true);
      expect((await two.consume(key)).allowed).to.equal(true);
      expect((await one.consume(key)).allowed).to.equal(true);
      expect((await two.consume(key)).allowed).to.equal(false);
      expect((await one.consume(key)).allowed).to.equal(false);
      expect(await redisKeys(redisUrl, `${keyPrefix}:${key}`)).to.have.length(1);
    });

    it('counts requests made at once on two instances exactly: the shared limit, and every request in the Redis count', async () => {
      const { one, two, keyPrefix, key } = await twoInstances(20);
      const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? one : two).consume(key)));
      expect(decisions.filter((d) => d.allowed)).to.have.length(20);
      // Every remaining count from 19 down to 0 is given exactly once, whichever instance gave it.
      expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      expect(await redisNumber(redisUrl, `${keyPrefix}:${key}`)).to.equal(30);
    });
  }
});

describe('rate limits while Redis is down at start', () => {
  const server = useServer({ rateLimitPoints: 3, rateLimitWindowSeconds: 60, redisUrl: DEAD_REDIS });
  beforeEach(async () => {
    await resetToBrands('acme');
  });

  it('serves requests quickly and still applies the limit through the in-process insurance limiter', async () => {
    expect(server.limiter.backend).to.equal('redis');
    const { key } = await createTestKey({ brands: ['acme'] });
    const other = await createTestKey({ brands: ['acme'] });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { value, ms } = await timed(() => server.request('/brands/acme/carton-sizes', { key }));
      expect(ms, `request ${i + 1} took ${ms} ms`).to.be.below(1000);
      statuses.push(value.status);
      if (value.status === 429) {
        expectErrorBody(value.body, 'rate_limited');
        expect(value.headers.get('retry-after')).to.match(/^\d+$/);
      }
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
    const { value, ms } = await timed(() => server.request('/brands/acme/carton-sizes', { key: other.key }));
    expect(value.status).to.equal(200);
    expect(ms).to.be.below(1000);
  });

  it('warns once that Redis is unreachable, not on every reconnect attempt', async () => {
    await waitFor(async () => server.logs.some((l) => /redis unreachable/.test(String(l.msg))), { timeoutMs: 5000, what: 'the warning' });
    await sleep(2500); // at least one more reconnect attempt
    const warnings = server.logs.filter((l) => /redis unreachable/.test(String(l.msg)));
    expect(warnings).to.have.length(1);
    expect(warnings[0]!.level).to.equal(40);
  });
});

if (onPath('redis-server')) {
  describe('rate limits while a Redis of our own goes down and comes back', () => {
    let redis: LocalRedis;

    before(async () => {
      redis = new LocalRedis(await freePort());
      await redis.start();
    });
    const server = useServer(() => ({ rateLimitPoints: 1000, rateLimitWindowSeconds: 60, redisUrl: redis.url }));
    before(() => waitUntilCountingInRedis(server.limiter, redis.url));
    after(() => redis?.dispose());
    beforeEach(async () => {
      await resetToBrands('acme');
    });

    async function counterOf(keyId: string): Promise<number | null> {
      const [stored] = await redisKeys(redis.url, `*:${keyId}`);
      return stored ? redisNumber(redis.url, stored) : null;
    }

    it('counts in Redis, keeps serving while Redis is killed mid-traffic, and counts in Redis again once it is back', async () => {
      const { key, id } = await createTestKey({ brands: ['acme'] });
      const firstThree = [];
      for (let i = 0; i < 3; i++) firstThree.push(await server.request('/brands/acme/carton-sizes', { key }));
      expect(firstThree.map((r) => r.status)).to.deep.equal([200, 200, 200]);
      expect(firstThree.map((r) => r.headers.get('ratelimit-remaining'))).to.deep.equal(['999', '998', '997']);
      // The counter holds the three, and the places the instance leased ahead (limit-leases.ts).
      expect(await counterOf(id), 'the counter in Redis before the outage').to.be.within(3, 3 + MAX_LEASE);

      // Two streams of requests; Redis is killed while they run.
      const results: { status: number; ms: number }[] = [];
      const stream = async (n: number): Promise<void> => {
        for (let i = 0; i < n; i++) {
          const { value, ms } = await timed<TestResponse>(() => server.request('/brands/acme/carton-sizes', { key }));
          results.push({ status: value.status, ms });
          await sleep(20);
        }
      };
      const traffic = Promise.all([stream(25), stream(25)]);
      await waitFor(async () => results.length >= 4, { timeoutMs: 10_000, intervalMs: 10, what: 'traffic before Redis is killed' });
      await redis.kill();
      await traffic;
      // And more while it stays down.
      await stream(10);
      expect(results).to.have.length(60);
      for (const r of results) {
        expect(r.status).to.equal(200);
        expect(r.ms, 'no request hangs on a dead Redis').to.be.below(1500);
      }

      // Redis comes back (empty: it keeps no data) on the same port.
      await redis.start();
      const { key: freshKey, id: freshId } = await createTestKey({ brands: ['acme'] });
      await waitFor(async () => {
        expect((await server.request('/brands/acme/carton-sizes', { key: freshKey })).status).to.equal(200);
        return (await counterOf(freshId)) !== null;
      }, { timeoutMs: 10_000, intervalMs: 200, what: 'counting to go back to Redis' });
      const before = (await counterOf(freshId))!;
      for (let i = 0; i < 2; i++) expect((await server.request('/brands/acme', { key: freshKey })).status).to.equal(200);
      // Each request is counted in Redis again (a command timing out under load would fall to the insurance limiter),
      // with the places the instance leases ahead once it knows the key has plenty left (limit-leases.ts).
      expect(await counterOf(freshId), 'requests counted in Redis again').to.be.within(before + 1, before + 2 + MAX_LEASE);
      expect(server.logs.some((l) => /redis is back/.test(String(l.msg))), 'the log says Redis is back').to.equal(true);
    });

    it('shares the limit between two servers on that Redis once it is back', async () => {
      const keyPrefix = `bcat:test:${randomBytes(6).toString('hex')}`;
      const make = (): RateLimiter => createRateLimiter({ points: 3, windowSeconds: 60, redisUrl: redis.url, keyPrefix, logger: collectingLogger().logger });
      const limiterA = make();
      const limiterB = make();
      const a = await startTestServer({ limiter: limiterA });
      const b = await startTestServer({ limiter: limiterB });
      try {
        await waitUntilCountingInRedis(limiterA, redis.url);
        await waitUntilCountingInRedis(limiterB, redis.url);
        const { key, id } = await createTestKey({ brands: ['acme'] });
        expect((await a.request('/brands/acme', { key })).status).to.equal(200);
        expect((await b.request('/brands/acme', { key })).status).to.equal(200);
        expect((await a.request('/brands/acme/carton-sizes', { key })).status).to.equal(200);
        const limited = await b.request('/brands/acme', { key });
        expect(limited.status, 'the 4th request, on the other server').to.equal(429);
        expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
        expect((await a.request('/brands/acme', { key })).status).to.equal(429);
        expect(await redisNumber(redis.url, `${keyPrefix}:${id}`)).to.equal(5);
      } finally {
        await a.close();
        await b.close();
        await limiterA.close();
        await limiterB.close();
      }
    });
  });
}
