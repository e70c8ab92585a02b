import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AUTH_FAILURE_WINDOW_SECONDS } from '../../../src/server/limits/auth-failure-guard.ts';
import { createLimitStores } from '../../../src/server/limits/limit-stores.ts';

describe('createLimitStores', () => {
  const options = { points: 3, windowSeconds: 10, authFailurePoints: 2 };

  it('counts in process without Redis: requests per window, failed authentications per minute, each under its prefix', async () => {
    const stores = createLimitStores({ ...options, keyPrefix: 'p', redis: null });
    expect(stores.requests).to.be.instanceOf(RateLimiterMemory);
    expect(stores.authFailures).to.be.instanceOf(RateLimiterMemory);
    expect([stores.requests.points, stores.requests.duration, stores.requests.keyPrefix]).to.deep.equal([3, 10, 'p']);
    expect([stores.authFailures.points, stores.authFailures.duration, stores.authFailures.keyPrefix]).to.deep.equal([2, AUTH_FAILURE_WINDOW_SECONDS, 'p:authfail']);
    expect((await stores.requests.consume('k')).remainingPoints).to.equal(2);
    expect((await stores.authFailures.consume('k')).remainingPoints, 'the two budgets are apart').to.equal(1);
  });

  it('counts in Redis with an in-process insurance limiter of the same budget while Redis does not answer', async () => {
    const redis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, lazyConnect: true });
    try {
      const stores = createLimitStores({ ...options, keyPrefix: 'p', redis });
      expect(stores.requests).to.be.instanceOf(RateLimiterRedis);
      expect(stores.authFailures).to.be.instanceOf(RateLimiterRedis);
      const decided = await Promise.allSettled([1, 2, 3, 4].map(() => stores.requests.consume('k')));
      expect(decided.map((d) => d.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    } finally {
      redis.disconnect();
    }
  });

  if (process.env.REDIS_URL) {
    it('keeps both counts in Redis under the prefix (REDIS_URL)', async () => {
      const redis = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
      try {
        await redis.connect();
        const keyPrefix = `bcat:test:${randomBytes(6).toString('hex')}`;
        const stores = createLimitStores({ ...options, keyPrefix, redis });
        await stores.requests.consume('k');
        await stores.authFailures.consume('k');
        await stores.authFailures.consume('k');
        expect(await redis.get(`${keyPrefix}:k`)).to.equal('1');
        expect(await redis.get(`${keyPrefix}:authfail:k`)).to.equal('2');
        expect(await redis.ttl(`${keyPrefix}:authfail:k`)).to.be.within(AUTH_FAILURE_WINDOW_SECONDS - 2, AUTH_FAILURE_WINDOW_SECONDS);
        await redis.del(`${keyPrefix}:k`, `${keyPrefix}:authfail:k`);
      } finally {
        redis.disconnect();
      }
    });
  }
});
