import { setHeader } from './set-header.ts';
import type { Context } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';
import type { RateLimitDecision, RateLimiter } from '../limits/rate-limiter.ts';
import type { KeyGrant } from '../auth/api-keys.ts';

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
 * rate limits guide); its `RateLimit-Policy` form (`100;w=60`) gave way to the new one,
 * which has the same name.
 */
function setRateLimitHeaders(ctx: Context, policy: { limit: string; policy: string }, decision: RateLimitDecision): void {
  setHeader(ctx, 'RateLimit-Policy', policy.policy);
  setHeader(ctx, 'RateLimit', `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`);
  setHeader(ctx, 'RateLimit-Limit', policy.limit);
  setHeader(ctx, 'RateLimit-Remaining', String(decision.remaining));
  setHeader(ctx, 'RateLimit-Reset', String(decision.resetSeconds));
}

/** The two ends of a request's count (family-guard.ts). */
export interface RequestCounting {
  /** Counts the request against its key, with its headers; 429 with `Retry-After` when the window is spent. */
  count(ctx: Context): Promise<void>;
  /** Gives a 304's point back (the client already had the representation): conditional requests cost nothing. */
  refund(ctx: Context): Promise<void>;
}

/**
 * Counts each request against its key's limit: the key's own when it has
 * one (`KeyGrant.rateLimit`, CONTRACT.md §4), else the service's, and
 * `RateLimit-Policy` shows the one in force.
 */
export function rateLimit({ limiter }: { limiter: RateLimiter }): RequestCounting {
  // The headers of each limit, written once: the default's, and each key's own as it is first met.
  const policies = new Map<number, { limit: string; policy: string }>();
  const policyOf = (points: number): { limit: string; policy: string } => {
    let policy = policies.get(points);
    if (!policy) {
      if (policies.size >= 1000) policies.clear();
      policy = { limit: String(points), policy: `"${RATE_LIMIT_POLICY_NAME}";q=${points};w=${limiter.windowSeconds}` };
      policies.set(points, policy);
    }
    return policy;
  };
  const pointsOf = (ctx: Context): number => (ctx.state.grant as KeyGrant).rateLimit ?? limiter.points;
  return {
    async count(ctx) {
      const points = pointsOf(ctx);
      const decision = await limiter.consume(ctx.state.keyId as string, points);
      setRateLimitHeaders(ctx, policyOf(points), decision);
      if (!decision.allowed) {
        throw new ApiError({ errorCode: 'rate_limited', headers: { 'Retry-After': String(decision.resetSeconds) } });
      }
    },
    async refund(ctx) {
      const points = pointsOf(ctx);
      const refunded = await limiter.refund(ctx.state.keyId as string, points);
      if (refunded) setRateLimitHeaders(ctx, policyOf(points), refunded);
    },
  };
}
