import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import { ApiError } from '../../engine/request/api-error.ts';
import { findGrant, isWellFormedKey, type KeyGrant } from '../auth/api-keys.ts';
import type { AuthFailureGuard } from '../limits/auth-failure-guard.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Checks the key (401) and looks up the brand of the path with it, in one
 * query. The brand verdict (404 / 401) waits for `authorizeBrand`, after the
 * rate limit, so that the check order of CONTRACT.md §4 holds.
 */
/** How a key and a brand slug become a grant: straight from the database, or through the key cache. */
export type GrantLookup = (db: Knex, request: { key: string; brandSlug: string | null }) => Promise<KeyGrant | null>;

export function authenticate({ db, failures, lookup = findGrant }: { db: Knex; failures: AuthFailureGuard; lookup?: GrantLookup }): Middleware {
  return async (ctx, next) => {
    // A client that failed too often waits, whatever key it brings now: guessing gets no answers.
    const wait = failures.blockedFor(ctx.ip);
    if (wait > 0) {
      throw new ApiError({ errorCode: 'rate_limited', message: 'Too many failed authentications from this client.', headers: { 'Retry-After': String(wait) } });
    }
    const match = BEARER.exec(ctx.get('Authorization'));
    const key = match?.[1];
    const slug = String(ctx.params.brand);
    // Postgres text cannot hold NUL: such a slug names no brand (404 after the key check), and must not reach SQL.
    const brandSlug = slug.includes('\u0000') ? null : slug;
    const grant = key && isWellFormedKey(key) ? await lookup(db, { key, brandSlug }) : null;
    if (!grant) {
      await failures.recordFailure(ctx.ip);
      throw new ApiError({ errorCode: 'unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    ctx.state.keyId = grant.keyId;
    ctx.state.grant = grant;
    await next();
  };
}
