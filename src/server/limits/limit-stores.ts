import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { AUTH_FAILURE_WINDOW_SECONDS } from './auth-failure-guard.ts';

/** Where a rate limiter counts: requests per key, and failed authentications per client. */
export interface LimitStores {
  readonly requests: RateLimiterAbstract;
  readonly authFailures: RateLimiterAbstract;
}

/**
 * In process without Redis. With Redis, both count there, each backed by an
 * in-process insurance limiter with the same budget, which counts while Redis
 * does not answer; a store never waits for Redis to be ready.
 */
export function createLimitStores({ points, windowSeconds, keyPrefix, authFailurePoints, redis }: {
  points: number;
  windowSeconds: number;
  keyPrefix: string;
  authFailurePoints: number;
  redis: Redis | null;
}): LimitStores {
  const requestOptions = { points, duration: windowSeconds, keyPrefix };
  const failureOptions = { points: authFailurePoints, duration: AUTH_FAILURE_WINDOW_SECONDS, keyPrefix: `${keyPrefix}:authfail` };
  if (!redis) return { requests: new RateLimiterMemory(requestOptions), authFailures: new RateLimiterMemory(failureOptions) };
  return {
    requests: new RateLimiterRedis({
      storeClient: redis,
      ...requestOptions,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(requestOptions),
    }),
    authFailures: new RateLimiterRedis({
      storeClient: redis,
      ...failureOptions,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(failureOptions),
    }),
  };
}
