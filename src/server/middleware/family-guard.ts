import type { Context, Middleware } from 'koa';
import { authorizeBrand } from './authorize-brand.ts';
import { answerConditionally } from './conditional-get.ts';
import { markPrivate } from './private-caching.ts';
import type { RequestCounting } from './rate-limit.ts';
import { requireDatabase, type DatabaseReadiness } from './require-database.ts';

/**
 * What stands before every family route, in the contract's check order
 * (CONTRACT.md §4: key, brand, parameters, record), as one middleware: six
 * layers were a promise, a bound `next` and an async frame each per request
 * (docs/PERFORMANCE.md). Each concern stays in its own file; here is only
 * their order:
 * 1. no-store until proven otherwise (private-caching.ts);
 * 2. 503 while a server started before its database waits for it (require-database.ts);
 * 3. the key (authenticate.ts);
 * 4. the rate limit, counted right after the key: every request a valid key
 *    makes counts, whatever its brand (rate-limit.ts);
 * 5. the brand exists (404) and the key may read it (401) (authorize-brand.ts);
 * 6. a restricted key may read the family, and every family it asks to
 *    include (401, authorize-family.ts);
 * then the route (its parameters, 400, then its record, 404); on the way back, when the route answered without
 * throwing, the ETag and 304 (conditional-get.ts), and a 304's point given back.
 */
export function familyGuard({ readiness, authenticate, counting, authorizeFamily }: {
  readiness: DatabaseReadiness;
  authenticate: (ctx: Context) => Promise<void>;
  counting: RequestCounting;
  authorizeFamily: (ctx: Context) => void;
}): Middleware {
  return async (ctx, next) => {
    markPrivate(ctx);
    requireDatabase(readiness);
    await authenticate(ctx);
    await counting.count(ctx);
    authorizeBrand(ctx);
    authorizeFamily(ctx);
    await next();
    answerConditionally(ctx);
    if (ctx.status === 304) await counting.refund(ctx);
  };
}
