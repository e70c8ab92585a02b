import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * API keys: `bcat_sk_<secret>`, where the secret is 256 random bits in base62
 * (43 characters). Only the SHA-256 of the whole key is stored, and a key is
 * found by that hash; a key with that much entropy needs no slow hash.
 * This file is the key's format and its per-request lookup; `key-admin.ts`
 * creates, lists and revokes keys.
 */

/** The service's key prefix (CONTRACT.md §4: `<prefix>sk_<secret>`). */
export const KEY_PREFIX = 'bcat_';
const SECRET_LENGTH = 43;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}sk_[0-9A-Za-z]{${SECRET_LENGTH}}$`);

export function generateKey(): string {
  let n = BigInt(`0x${randomBytes(32).toString('hex')}`);
  let secret = '';
  while (n > 0n) {
    secret = BASE62[Number(n % 62n)]! + secret;
    n /= 62n;
  }
  return `${KEY_PREFIX}sk_${secret.padStart(SECRET_LENGTH, '0')}`;
}

/** True for a string of the key's shape; anything else is refused without a database lookup. */
export function isWellFormedKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Who a key is, and what it may do with the brand a request names. */
export interface KeyGrant {
  readonly keyId: string;
  /** The brand of the path, or null when no brand has that slug. */
  readonly brand: { readonly id: string; readonly slug: string } | null;
  /** Whether the key may read that brand. */
  readonly allowed: boolean;
}

/**
 * One round trip: the live key with this hash (not revoked, not expired),
 * the brand of the slug (none for a null slug), and whether the key covers it.
 * Null: no such key.
 */
export async function findGrant(db: Knex, { key, brandSlug }: { key: string; brandSlug: string | null }): Promise<KeyGrant | null> {
  const result = (await db.raw(
    `select k.id as "keyId", b.id as "brandId", b.slug as "brandSlug", (k.is_global or kb.brand_id is not null) as "allowed"
       from api_keys k
       left join brands b on b.slug = ?
       left join api_key_brands kb on kb.key_id = k.id and kb.brand_id = b.id
      where k.key_hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`,
    [brandSlug, hashKey(key)],
  )) as { rows: { keyId: string; brandId: string | null; brandSlug: string | null; allowed: boolean }[] };
  const row = result.rows[0];
  if (!row) return null;
  return {
    keyId: row.keyId,
    brand: row.brandId ? { id: row.brandId, slug: row.brandSlug! } : null,
    allowed: row.allowed,
  };
}
