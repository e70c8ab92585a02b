import { setHeader } from './set-header.ts';
import type { Context } from 'koa';

/**
 * What a key reads is the brand's and the key's: no shared cache may keep
 * it, and a cache must key it by the credential (`Vary: Authorization`).
 * Every answer of a keyed route starts as `no-store`; a 200 is relaxed to
 * `private, no-cache` by the conditional GET, so that it can be revalidated.
 */
export function markPrivate(ctx: Context): void {
  // Appended: with CORS_ORIGINS the response varies by Origin too (cors.ts).
  ctx.vary('Authorization');
  setHeader(ctx, 'Cache-Control', 'no-store');
}
