import type { Middleware } from 'koa';
import { ApiError } from '../../engine/errors.ts';
import type { RateLimiter } from '../rate-limiter.ts';

/** Counts the request against its key; 429 with `Retry-After` when the window is spent. */
export function rateLimit({ limiter }: { limiter: RateLimiter }): Middleware {
  return async (ctx, next) => {
    const decision = await limiter.consume(ctx.state.keyId as string);
    if (!decision.allowed) {
      throw new ApiError({ errorCode: 'rate_limited', headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
    }
    await next();
  };
}
