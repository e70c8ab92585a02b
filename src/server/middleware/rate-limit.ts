import type { Context, Middleware } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';
import type { RateLimitDecision, RateLimiter } from '../limits/rate-limiter.ts';

/**
 * The key's budget on every response it gets, 429 included, in the IETF
 * draft's form (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`
 * in seconds from now, `RateLimit-Policy` with the window).
 */
function setRateLimitHeaders(ctx: Context, policy: { limit: string; policy: string }, decision: RateLimitDecision): void {
  ctx.set('RateLimit-Limit', policy.limit);
  ctx.set('RateLimit-Remaining', String(decision.remaining));
  ctx.set('RateLimit-Reset', String(decision.resetSeconds));
  ctx.set('RateLimit-Policy', policy.policy);
}

/**
 * Counts the request against its key; 429 with `Retry-After` when the window
 * is spent. A 304 (the client already had the representation) is given back:
 * conditional requests cost nothing.
 */
export function rateLimit({ limiter }: { limiter: RateLimiter }): Middleware {
  // The same for every request: written once.
  const policy = { limit: String(limiter.points), policy: `${limiter.points};w=${limiter.windowSeconds}` };
  return async (ctx, next) => {
    const key = ctx.state.keyId as string;
    const decision = await limiter.consume(key);
    setRateLimitHeaders(ctx, policy, decision);
    if (!decision.allowed) {
      throw new ApiError({ errorCode: 'rate_limited', headers: { 'Retry-After': String(decision.resetSeconds) } });
    }
    await next();
    if (ctx.status === 304) {
      const refunded = await limiter.refund(key);
      if (refunded) setRateLimitHeaders(ctx, policy, refunded);
    }
  };
}
