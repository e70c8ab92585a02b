import { setHeader } from './set-header.ts';
import type { Context, Middleware } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';
import type { RateLimitDecision, RateLimiter } from '../limits/rate-limiter.ts';

/** The name of the one quota policy, as the structured fields name it. */
export const RATE_LIMIT_POLICY_NAME = 'default';

/**
 * The key's budget on every response it gets, 429 included, in the
 * structured fields of the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers, 09 and later):
 * `RateLimit-Policy: "default";q=<limit>;w=<window seconds>` and
 * `RateLimit: "default";r=<remaining>;t=<seconds until the window resets>`.
 * The earlier draft's `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` are still sent, for one release (deprecated in the
 * README); its `RateLimit-Policy` form (`100;w=60`) gave way to the new one,
 * which has the same name.
 */
function setRateLimitHeaders(ctx: Context, policy: { limit: string; policy: string }, decision: RateLimitDecision): void {
  setHeader(ctx, 'RateLimit-Policy', policy.policy);
  setHeader(ctx, 'RateLimit', `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`);
  setHeader(ctx, 'RateLimit-Limit', policy.limit);
  setHeader(ctx, 'RateLimit-Remaining', String(decision.remaining));
  setHeader(ctx, 'RateLimit-Reset', String(decision.resetSeconds));
}

/**
 * Counts the request against its key; 429 with `Retry-After` when the window
 * is spent. A 304 (the client already had the representation) is given back:
 * conditional requests cost nothing.
 */
export function rateLimit({ limiter }: { limiter: RateLimiter }): Middleware {
  // The same for every request: written once.
  const policy = { limit: String(limiter.points), policy: `"${RATE_LIMIT_POLICY_NAME}";q=${limiter.points};w=${limiter.windowSeconds}` };
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
