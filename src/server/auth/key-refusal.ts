import type { Knex } from 'knex';
import { ApiError } from '../../engine/request/api-error.ts';
import { KEY_REFUSALS, type KeyRefusal } from '../../engine/request/key-refusals.ts';
import { hashKey } from './api-keys.ts';

/**
 * The 401 for a refused key, its reason in `details` (the reasons and what
 * each may tell: key-refusals.ts), and `more` after the reason's message
 * when given (the family a restricted key may not read). A request without a live key also gets
 * `WWW-Authenticate` (RFC 6750 §3: `invalid_token` once a key was sent);
 * a live key refused for the brand or the family gets none.
 */
export function keyRefused(reason: KeyRefusal, more?: string): ApiError {
  const challenge = reason === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"';
  return new ApiError({
    errorCode: 'unauthorized',
    message: more === undefined ? KEY_REFUSALS[reason] : `${KEY_REFUSALS[reason]} ${more}`,
    details: { reason },
    // A live key refused for the brand or the family: nothing is wrong with the token itself.
    headers: reason === 'brand_not_allowed' || reason === 'family_not_allowed' ? {} : { 'WWW-Authenticate': challenge },
  });
}

/**
 * Why a well-formed key found no grant: expired (not revoked, past its
 * expiry) or not. One index probe on the key's hash, made only for a key
 * that failed, from a client the failed-authentication limit has not
 * blocked (authenticate.ts), so its cost is bounded by that limit.
 */
export async function refusalOfKey(db: Knex, key: string): Promise<'unknown_or_revoked' | 'expired'> {
  const expired = await db('api_keys')
    .first('id')
    .where({ key_hash: hashKey(key) })
    .whereNull('revoked_at')
    .andWhere('expires_at', '<=', db.fn.now());
  return expired ? 'expired' : 'unknown_or_revoked';
}
