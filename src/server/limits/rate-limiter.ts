import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createAuthFailureGuard, type AuthFailureGuard } from './auth-failure-guard.ts';
import { connectLimitRedis } from './limit-redis.ts';
import { leaseLimitCounts } from './limit-leases.ts';
import { createLimitStores } from './limit-stores.ts';
import type { Logger } from '../logger.ts';
import { activeTracing } from '../tracing/tracing.ts';

/** The outcome of one request against its key's budget. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window resets: `RateLimit-Reset`, and the `Retry-After` of a 429. */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  /** `redis`, or `memory` when no REDIS_URL is set. */
  readonly backend: 'redis' | 'memory';
  /** Requests a key may make per window unless it has a limit of its own, and the window's length. */
  readonly points: number;
  readonly windowSeconds: number;
  /** Counts a request of a key against its limit: `points`, the key's own, or the default. */
  consume(key: string, points?: number): Promise<RateLimitDecision>;
  /** Whether Redis answers now: `none` without REDIS_URL (the readiness check reports it). */
  redisState(): 'ready' | 'down' | 'none';
  readonly authFailures: AuthFailureGuard;
  /** Gives back the point a request consumed (a 304 costs nothing); null when the store could not take it back. */
  refund(key: string, points?: number): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

/** The decision for a request that makes the key's count `count` (points used in the window) of `points`. */
function decide(points: number, { count, msBeforeNext }: { count: number; msBeforeNext: number }): RateLimitDecision {
  return {
    allowed: count <= points,
    limit: points,
    remaining: Math.max(0, points - count),
    resetSeconds: Math.max(0, Math.ceil(msBeforeNext / 1000)),
  };
}

/** The store's atomic increment, once the first connection attempt to Redis has settled. */
function addToStore(store: RateLimiterAbstract, firstConnection: () => Promise<void> | null) {
  return async (key: string, requests: number): Promise<RateLimiterRes> => {
    const connecting = firstConnection();
    if (connecting) await connecting;
    try {
      return await store.consume(key, requests);
    } catch (rejection) {
      // Over the limit: the store has counted the points all the same, as single requests would be.
      if (rejection instanceof RateLimiterRes) return rejection;
      throw rejection;
    }
  };
}

/**
 * A fixed window of `points` requests per `windowSeconds` per key, or of a
 * key's own limit (`consume(key, points)`: CONTRACT.md §4), counted the same way.
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
 * one increment (batch-limit-counts.ts): one Redis command for a burst, with each
 * request still decided at its own place in the count. While a key has plenty
 * left, that increment also leases a few places for the next requests, which
 * are then counted in process (limit-leases.ts).
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
  const redis = redisUrl ? connectLimitRedis({ redisUrl, logger }) : null;
  const firstConnection = (): Promise<void> | null => redis?.firstConnection() ?? null;
  const stores = createLimitStores({ points, windowSeconds, keyPrefix, authFailurePoints, redis: redis?.client ?? null });
  const authFailures = createAuthFailureGuard({ failures: stores.authFailures, firstConnection, logger });

  // With tracing on, each call to Redis is a span of the request that made it (a batch's: of the request that opened the batch).
  const tracing = redis ? activeTracing() : null;
  const add = addToStore(stores.requests, firstConnection);
  const reward = (key: string) => stores.requests.reward(key, 1);
  // A key's requests of one event-loop turn are counted with one increment, with a lease while it has plenty left.
  const counts = leaseLimitCounts({
    points,
    add: tracing ? (key, requests) => tracing.redis('rate-limit increment', () => add(key, requests), { 'bcat.rate_limit.requests': requests }) : add,
    // Leases come from Redis only: while it is down, the insurance limiter counts each request, as it did.
    canLease: () => !redis || redis.client.status === 'ready',
  });

  return {
    backend: redis ? 'redis' : 'memory',
    points,
    windowSeconds,
    authFailures,
    redisState() {
      if (!redis) return 'none';
      return redis.client.status === 'ready' ? 'ready' : 'down';
    },
    async consume(key, own = points) {
      return decide(own, await counts.count(key, own));
    },
    async refund(key, own = points) {
      const leased = counts.refund(key);
      if (leased) return decide(own, leased);
      try {
        const after = await (tracing ? tracing.redis('rate-limit refund', () => reward(key)) : reward(key));
        return decide(own, { count: after.consumedPoints, msBeforeNext: after.msBeforeNext });
      } catch (error) {
        // A lost refund costs the client one request; it must not fail the response.
        logger.warn({ err: (error as Error).message }, 'rate limit refund failed');
        return null;
      }
    },
    async close() {
      if (redis) redis.client.disconnect();
    },
  };
}
