import type { Context } from 'koa';
import type { Knex } from 'knex';
import { ApiError } from '../../engine/request/api-error.ts';
import { findGrant, isWellFormedKey, type KeyGrant } from '../auth/api-keys.ts';
import type { KeyRefusal } from '../../engine/request/key-refusals.ts';
import { keyRefused, refusalOfKey } from '../auth/key-refusal.ts';
import { createLiveKeyCheck, type LiveKeyCheck } from '../auth/live-key-check.ts';
import type { AuthFailureGuard } from '../limits/auth-failure-guard.ts';

const BEARER = /^Bearer +(\S+) *$/i;

/** How a key and a brand slug become a grant: straight from the database, or through the key cache. */
export type GrantLookup = (db: Knex, request: { key: string; brandSlug: string | null }) => Promise<KeyGrant | null>;

/** A grant known in process (the key cache), without asking the database; null when not known. */
export type CachedGrant = (request: { key: string; brandSlug: string | null }) => KeyGrant | null;

/**
 * Checks the key (401) and looks up the brand of the path with it, in one
 * query. The brand verdict (404 / 401) waits for `authorizeBrand`, after the
 * rate limit, so that the check order of CONTRACT.md §4 holds.
 *
 * The failed-authentication limit (CONTRACT.md §4: it may slow requests that
 * carry no valid key, never refuse a valid one). The key is always checked
 * first, and only a request whose key is not valid is counted or refused:
 * - a missing or malformed key (wrong shape or checksum) fails without a
 *   database lookup, as it always did;
 * - from a client that is not blocked, a well-formed key is looked up as
 *   usual (key cache, then database); a failure is counted for its address,
 *   and the failure that spends the budget blocks the address for the rest
 *   of the window;
 * - from a blocked client, a key the key cache knows is served at once; any
 *   other well-formed key is first checked for being live by the batched
 *   check (live-key-check.ts: all blocked clients together hold at most one
 *   database connection, however many requests they send), and only a live
 *   key gets the usual lookup. Whatever fails is 429 with `Retry-After`,
 *   without being counted again (no store round trip under a flood).
 * So a valid key is never refused, whoever shares its address, and a flood
 * of bad keys costs the database at most one connection. What the block
 * cannot do is stop guessing from a blocked address: it would have to refuse
 * that address's valid keys too. It need not: a key holds about 238 random
 * bits, past any guessing, and the block is there to keep a flood cheap and
 * to tell a broken client to back off. The 401 says why (`details.reason`,
 * key-refusal.ts: missing, malformed, unknown or revoked, expired), never
 * more than the caller knows; a blocked client gets the same 429 whatever
 * its key.
 */
export function authenticate({ db, failures, lookup = findGrant, cached = () => null, liveKeys = createLiveKeyCheck({ db }), seen = () => {} }: {
  db: Knex;
  failures: AuthFailureGuard;
  lookup?: GrantLookup;
  cached?: CachedGrant;
  liveKeys?: LiveKeyCheck;
  /** Notes that a live key was used now (key-usage.ts: written at most once a minute). */
  seen?: (keyId: string) => void;
}): (ctx: Context) => Promise<void> {
  /** The grant of a well-formed key, or null: the usual lookup, or for a blocked client the cache or a live key's lookup. */
  const grantFor = async (client: string, request: { key: string; brandSlug: string | null }): Promise<KeyGrant | null> => {
    if (failures.blockedFor(client) === 0) return lookup(db, request);
    const known = cached(request);
    if (known) return known;
    return (await liveKeys(request.key)) ? lookup(db, request) : null;
  };

  return async (ctx) => {
    const header = ctx.get('Authorization');
    const key = BEARER.exec(header)?.[1];
    const slug = String(ctx.params.brand);
    // Postgres text cannot hold NUL: such a slug names no brand (404 after the key check), and must not reach SQL.
    const brandSlug = slug.includes('\u0000') ? null : slug;
    const grant = key && isWellFormedKey(key) ? await grantFor(ctx.ip, { key, brandSlug }) : null;
    if (!grant) {
      const wait = failures.blockedFor(ctx.ip);
      if (wait > 0) {
        throw new ApiError({ errorCode: 'rate_limited', message: 'Too many failed authentications from this client.', headers: { 'Retry-After': String(wait) } });
      }
      await failures.recordFailure(ctx.ip);
      throw keyRefused(await refusalOf(header, key));
    }
    ctx.state.keyId = grant.keyId;
    ctx.state.grant = grant;
    seen(grant.keyId);
  };

  /** Why the key of a header found no grant (the expiry lookup only for a well-formed key). */
  async function refusalOf(header: string, key: string | undefined): Promise<KeyRefusal> {
    if (header.trim() === '') return 'missing';
    if (!key || !isWellFormedKey(key)) return 'malformed';
    return refusalOfKey(db, key);
  }
}
