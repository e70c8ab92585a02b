import { setHeader } from './set-header.ts';
import type { Context, Middleware } from 'koa';
import type { CorsOrigins } from '../config.ts';

/**
 * What a page of another origin may read beyond the CORS-safelisted headers:
 * the conditional-request tag, the next page, the wait after a 429, the id to
 * quote, and the rate-limit fields rate-limit.ts sends (the draft's structured
 * pair and the deprecated three).
 */
const CORS_EXPOSED_HEADERS = [
  'ETag', 'Link', 'Retry-After', 'X-Request-Id',
  'RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset',
] as const;

/**
 * The request headers a page may send: the key, the conditional GET's tag and
 * a request id of its own. A fixed list rather than an echo of whatever the
 * preflight asks for: the server reads nothing else, and a browser then names
 * the refused header in its console instead of sending it in vain.
 */
const CORS_ALLOWED_HEADERS = ['Authorization', 'If-None-Match', 'X-Request-Id'] as const;

/**
 * Seconds a browser may keep a preflight's answer. Chromium caps it at 7200;
 * dropping an origin from CORS_ORIGINS still takes effect at once, since the
 * actual responses stop carrying `Access-Control-Allow-Origin`.
 */
const CORS_MAX_AGE_SECONDS = 7200;

/**
 * CORS for the pages of CORS_ORIGINS (app.ts installs it only when some are
 * set: without them no response carries a CORS header, and the layer costs
 * nothing). It sits right inside the envelope and sets its headers before
 * anything below runs, so they survive an error: the envelope writes the
 * error body over the same response and keeps its headers, and a page can
 * read a 401, 404, 429 or 500 like a 200.
 *
 * - A request from an allowed origin gets `Access-Control-Allow-Origin` (the
 *   origin itself, or `*` when every origin is allowed) and
 *   `Access-Control-Expose-Headers`. No `Access-Control-Allow-Credentials`:
 *   the key travels in `Authorization`, never in a cookie, so a page needs no
 *   credentials mode.
 * - With a list of origins every response varies by `Origin` (a cache must
 *   not give one origin's answer to another); with `*` the answer is the same
 *   for all and carries no such `Vary`.
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 *   from an allowed origin is answered here, 204, on any path: it needs no
 *   key, reaches no route and counts against neither the rate limit nor the
 *   failed-authentication limit. Answering unknown paths too lets the actual
 *   request through to its readable 404, where a refused preflight would be an
 *   opaque network error in the page. This is the one exception to "another
 *   method on a known path is 405" (CONTRACT.md §4). Any other `OPTIONS`, and
 *   a preflight from an origin not allowed, goes on to its 405 or 404 as
 *   before, without `Access-Control-Allow-Origin`, and the browser refuses it.
 */
export function cors({ origins }: { origins: CorsOrigins }): Middleware {
  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  const anyOrigin = origins === '*';
  const listed = new Set(anyOrigin ? [] : origins);
  return async (ctx, next) => {
    if (!anyOrigin) ctx.vary('Origin');
    const origin = ctx.get('Origin');
    const allowed = anyOrigin ? '*' : listed.has(origin) ? origin : null;
    if (allowed !== null && isPreflight(ctx)) {
      answerPreflight(ctx, allowed);
      return;
    }
    if (allowed !== null) {
      setHeader(ctx, 'Access-Control-Allow-Origin', allowed);
      setHeader(ctx, 'Access-Control-Expose-Headers', exposed);
    }
    await next();
  };
}

function isPreflight(ctx: Context): boolean {
  return ctx.method === 'OPTIONS' && ctx.get('Origin') !== '' && ctx.get('Access-Control-Request-Method') !== '';
}

/**
 * 204 with what may follow. The methods and headers are fixed lists: the
 * browser compares the request it means to send with them. The answer varies
 * by the three request headers that make an `OPTIONS` a preflight.
 */
function answerPreflight(ctx: Context, allowed: string): void {
  ctx.status = 204;
  setHeader(ctx, 'Access-Control-Allow-Origin', allowed);
  setHeader(ctx, 'Access-Control-Allow-Methods', 'GET, HEAD');
  setHeader(ctx, 'Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
  setHeader(ctx, 'Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
  ctx.vary('Origin');
  ctx.vary('Access-Control-Request-Method');
  ctx.vary('Access-Control-Request-Headers');
}
