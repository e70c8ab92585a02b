import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from './logger.ts';

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
  /** Requests a key may make per window, and the window's length. */
  readonly points: number;
  readonly windowSeconds: number;
  consume(key: string): Promise<RateLimitDecision>;
  /** Gives back the point a request consumed (a 304 costs nothing); null when the store could not take it back. */
  refund(key: string): Promise<RateLimitDecision | null>;
  close(): Promise<void>;
}

/**
 * A fixed window of `points` requests per `windowSeconds` per key.
 *
 * With Redis the count is shared by every instance. Redis is never waited
 * for: the client does not queue commands while disconnected, and a command
 * times out after 500 ms, so while Redis is down each request is counted by an
 * in-process insurance limiter (the same budget, per instance) and Redis takes
 * over again as soon as it reconnects.
 */
export function createRateLimiter({ points, windowSeconds, redisUrl, keyPrefix = 'bcat:rl', logger }: {
  points: number;
  windowSeconds: number;
  redisUrl: string | null;
  keyPrefix?: string;
  logger: Logger;
}): RateLimiter {
  const memory = new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix });
  let redis: Redis | null = null;
  let limiter: RateLimiterAbstract = memory;

  if (redisUrl) {
    redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      commandTimeout: 500,
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
    limiter = new RateLimiterRedis({
      storeClient: redis,
      points,
      duration: windowSeconds,
      keyPrefix,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix }),
    });
  }

  const decide = (result: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, result.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(result.msBeforeNext / 1000)),
  });

  return {
    backend: redis ? 'redis' : 'memory',
    points,
    windowSeconds,
    async consume(key) {
      try {
        return decide(await limiter.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false);
        throw rejection;
      }
    },
    async refund(key) {
      try {
        return decide(await limiter.reward(key, 1), true);
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
