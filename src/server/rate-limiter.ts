import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from './logger.ts';

/** The outcome of one request against its key's budget. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window frees a request (the `Retry-After` of a 429). */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /** `redis`, or `memory` when no REDIS_URL is set. */
  readonly backend: 'redis' | 'memory';
  consume(key: string): Promise<RateLimitDecision>;
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
    retryAfterSeconds: Math.max(0, Math.ceil(result.msBeforeNext / 1000)),
  });

  return {
    backend: redis ? 'redis' : 'memory',
    async consume(key) {
      try {
        return decide(await limiter.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false);
        throw rejection;
      }
    },
    async close() {
      if (redis) redis.disconnect();
    },
  };
}
