import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { batchCounts } from './batch-limit-counts.ts';
import type { Logger } from '../logger.ts';

/** The outcome of one request against its key's budget. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window resets: `RateLimit-Reset`, and the `Retry-After` of a 429. */
  readonly resetSeconds: number;
}

/**
 * Slows down key guessing: failed authentications are counted per client
 * (its IP), and a client past its budget is refused with 429 for the rest of
 * the window, before any key lookup. Checking costs no round trip: blocked
 * clients are known in process; only a failure is counted in the store.
 */
export interface AuthFailureGuard {
  /** Whole seconds the client must wait before it may present a key again; 0 when it may now. */
  blockedFor(client: string): number;
  /** Counts a failed authentication; past the budget the client is blocked for the rest of the window. */
  recordFailure(client: string): Promise<void>;
}

/** Failed authentications a client may make per window, and the window. */
export const AUTH_FAILURE_WINDOW_SECONDS = 60;

/** The longest a request waits on Redis: a command's timeout, and the wait for the first connection. */
const REDIS_WAIT_MS = 500;

export interface RateLimiter {
  /** `redis`, or `memory` when no REDIS_URL is set. */
  readonly backend: 'redis' | 'memory';
  /** Requests a key may make per window, and the window's length. */
  readonly points: number;
  readonly windowSeconds: number;
  consume(key: string): Promise<RateLimitDecision>;
  /** Whether Redis answers now: `none` without REDIS_URL (the readiness check reports it). */
  redisState(): 'ready' | 'down' | 'none';
  readonly authFailures: AuthFailureGuard;
  /** Gives back the point a request consumed (a 304 costs nothing); null when the store could not take it back. */
  refund(key: string): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

/**
 * A fixed window of `points` requests per `windowSeconds` per key.
 *
 * With Redis the count is shared by every instance. Redis is never waited
 * for, save its first connection attempt at start (up to 500 ms, so the
 * first requests are counted where the rest will be): the client does not
 * queue commands while disconnected, and a command times out after 500 ms,
 * so while Redis is down each request is counted by an in-process insurance
 * limiter (the same budget, per instance) and Redis takes over again as soon
 * as it reconnects.
 *
 * A key's requests that arrive in the same event-loop turn are counted with
 * one increment (batch-counts.ts): one Redis command for a burst, with each
 * request still decided at its own place in the count.
 */
export function createRateLimiter({ points, windowSeconds, redisUrl, keyPrefix = 'bcat:rl', authFailurePoints = 30, logger }: {
  points: number;
  windowSeconds: number;
  redisUrl: string | null;
  keyPrefix?: string;
  /** Failed authentications a client may make per minute. */
  authFailurePoints?: number;
  logger: Logger;
}): RateLimiter {
  const memory = new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix });
  let redis: Redis | null = null;
  let limiter: RateLimiterAbstract = memory;
  const failureOptions = { points: authFailurePoints, duration: AUTH_FAILURE_WINDOW_SECONDS, keyPrefix: `${keyPrefix}:authfail` };
  let failures: RateLimiterAbstract = new RateLimiterMemory(failureOptions);
  /**
   * Settles when the first connection attempt has: Redis ready, or failed.
   * Counts wait for it (at most REDIS_WAIT_MS), so a server's first requests
   * are not counted in process and then forgotten when Redis comes up a few
   * milliseconds later. Once settled it is null and nothing waits on Redis.
   */
  let firstConnection: Promise<void> | null = null;

  if (redisUrl) {
    redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      commandTimeout: REDIS_WAIT_MS,
      // Limit checks issued in the same tick go to Redis in one write: fewer syscalls under load, same round trips.
      enableAutoPipelining: true,
      // Keep trying to reconnect, at most every 2 s, for as long as the process lives.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    let healthy = true;
    redis.on('ready', () => {
      if (!healthy) logger.info('redis is back: rate limits are shared again');
      healthy = true;
    });
    redis.on('error', (error: Error) => {
      // Logged once per outage, not on every reconnect attempt.
      if (healthy) logger.warn({ err: error.message }, 'redis unreachable: rate limits fall back to in-process counters');
      healthy = false;
    });
    const connecting = redis;
    firstConnection = new Promise<void>((settle) => {
      const timer = setTimeout(settle, REDIS_WAIT_MS);
      timer.unref();
      const done = (): void => {
        clearTimeout(timer);
        connecting.off('ready', done).off('error', done).off('end', done);
        settle();
      };
      connecting.once('ready', done).once('error', done).once('end', done);
    }).then(() => {
      firstConnection = null;
    });
    limiter = new RateLimiterRedis({
      storeClient: redis,
      points,
      duration: windowSeconds,
      keyPrefix,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix }),
    });
    failures = new RateLimiterRedis({
      storeClient: redis,
      ...failureOptions,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(failureOptions),
    });
  }

  /** Clients blocked for failing too often, and until when (ms since the epoch). */
  const blocked = new Map<string, number>();
  const authFailures: AuthFailureGuard = {
    blockedFor(client) {
      const until = blocked.get(client);
      if (until === undefined) return 0;
      const left = until - Date.now();
      if (left > 0) return Math.ceil(left / 1000);
      blocked.delete(client);
      return 0;
    },
    async recordFailure(client) {
      let result: RateLimiterRes;
      if (firstConnection) await firstConnection;
      try {
        result = await failures.consume(client);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          logger.warn({ err: (rejection as Error).message }, 'counting a failed authentication failed');
          return;
        }
        result = rejection;
      }
      // The budget is spent with this failure: the next attempt waits for the window's end.
      if (result.remainingPoints > 0) return;
      // Bounded: a flood from many addresses cannot grow the map without end.
      if (blocked.size >= 100_000) blocked.clear();
      blocked.set(client, Date.now() + result.msBeforeNext);
    },
  };

  /** The decision for a request that makes the key's count `count` (points used in the window). */
  const decide = ({ count, msBeforeNext }: { count: number; msBeforeNext: number }): RateLimitDecision => ({
    allowed: count <= points,
    limit: points,
    remaining: Math.max(0, points - count),
    resetSeconds: Math.max(0, Math.ceil(msBeforeNext / 1000)),
  });

  // A key's requests of one event-loop turn are counted with one increment (batch-counts.ts).
  const count = batchCounts({
    add: async (key, requests) => {
      if (firstConnection) await firstConnection;
      try {
        return await limiter.consume(key, requests);
      } catch (rejection) {
        // Over the limit: the store has counted the points all the same, as single requests would be.
        if (rejection instanceof RateLimiterRes) return rejection;
        throw rejection;
      }
    },
  });

  return {
    backend: redis ? 'redis' : 'memory',
    points,
    windowSeconds,
    authFailures,
    redisState() {
      if (!redis) return 'none';
      return redis.status === 'ready' ? 'ready' : 'down';
    },
    async consume(key) {
      return decide(await count(key));
    },
    async refund(key) {
      try {
        const after = await limiter.reward(key, 1);
        return decide({ count: after.consumedPoints, msBeforeNext: after.msBeforeNext });
      } catch (error) {
        // A lost refund costs the client one request; it must not fail the response.
        logger.warn({ err: (error as Error).message }, 'rate limit refund failed');
        return null;
      }
    },
    async close() {
      if (redis) redis.disconnect();
    },
  };
}
