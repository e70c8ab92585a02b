import type { Middleware } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';
import type { KeyGrant } from '../auth/api-keys.ts';

/** The brand of the path must exist (404) and be one the key may read (401). */
export function authorizeBrand(): Middleware {
  return async (ctx, next) => {
    const grant = ctx.state.grant as KeyGrant;
    if (!grant.brand) throw new ApiError({ errorCode: 'not_found', message: 'No brand with this slug.' });
    if (!grant.allowed) throw new ApiError({ errorCode: 'unauthorized', message: 'The API key is not authorized for this brand.' });
    ctx.state.brand = grant.brand;
    await next();
  };
}
