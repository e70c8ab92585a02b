import type { Middleware } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';

/**
 * What no route answered: 405 (with `Allow`) when the path exists for GET,
 * 404 otherwise, both with the contract's error body. A 404's message names
 * the path it was likely meant to be, when one is close (a typo, another
 * letter case, a trailing slash), as parameters' messages do.
 */
export function routeFallback({ pathExists, suggestPath = () => null }: {
  pathExists: (path: string) => boolean;
  suggestPath?: (path: string) => string | null;
}): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status !== 404) return;
    // A GET or HEAD that reached a route and set no body is a 404, not a 405.
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && pathExists(ctx.path)) {
      throw new ApiError({ errorCode: 'method_not_allowed', headers: { Allow: 'GET, HEAD' } });
    }
    const suggestion = suggestPath(ctx.path);
    const hint = suggestion === null ? '' : ` (did you mean '${suggestion}'?)`;
    throw new ApiError({ errorCode: 'not_found', message: `No such path in this API${hint}.` });
  };
}
