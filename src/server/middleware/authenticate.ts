import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import { ApiError } from '../../engine/errors.ts';
import { findGrant, isWellFormedKey } from '../api-keys.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Checks the key (401) and looks up the brand of the path with it, in one
 * query. The brand verdict (404 / 401) waits for `authorizeBrand`, after the
 * rate limit, so that the check order of CONTRACT.md §4 holds.
 */
export function authenticate({ db }: { db: Knex }): Middleware {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    const key = match?.[1];
    const slug = String(ctx.params.brand);
    // Postgres text cannot hold NUL: such a slug names no brand (404 after the key check), and must not reach SQL.
    const brandSlug = slug.includes('\u0000') ? null : slug;
    const grant = key && isWellFormedKey(key) ? await findGrant(db, { key, brandSlug }) : null;
    if (!grant) throw new ApiError({ errorCode: 'unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } });
    ctx.state.keyId = grant.keyId;
    ctx.state.grant = grant;
    await next();
  };
}
