import { hash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { toJsonBytes } from './json-body.ts';

/**
 * Conditional requests for what a key reads: a strong `ETag` on every 200,
 * computed from the exact bytes of the body, and `304 Not Modified` (no body)
 * when `If-None-Match` names it. The rate limiter, outside this middleware,
 * gives a 304's point back.
 *
 * A 200 may be kept by the client alone (`private`), and only to revalidate
 * (`no-cache`): the next read sends its tag and costs a 304.
 */
export function conditionalGet(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 200) return;
    // The tag is of the bytes sent.
    const bytes = toJsonBytes(ctx);
    if (bytes === null) return;
    const tag = `"${hash('sha256', bytes, 'base64url').slice(0, 32)}"`;
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('ETag', tag);
    if (matchesIfNoneMatch(ctx, tag)) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}

/** RFC 9110 §13.1.2: `*` or any listed tag, compared weakly (a `W/` prefix is ignored). */
function matchesIfNoneMatch(ctx: Context, tag: string): boolean {
  const header = ctx.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}
