import { hash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { crc32 } from 'node:zlib';
import { queryRows } from '../../db/query/query-rows.ts';

/**
 * API keys: `bcat_sk_<secret>`. The secret is 40 random base62 characters
 * (about 238 bits) and a 6-character checksum: the CRC-32 of everything
 * before it, in base62, as GitHub's tokens carry one. So a mistyped or made-up
 * key is refused without a database lookup, and a scanner can tell a real
 * leaked key from a look-alike by pattern and checksum alone:
 * `bcat_sk_[0-9A-Za-z]{46}`, whose last 6 characters check the rest.
 *
 * Keys made before the checksum (43 random characters, no checksum) keep
 * working: that exact shape is still looked up.
 *
 * Only the SHA-256 of the whole key is stored, and a key is found by that
 * hash; a key with that much entropy needs no slow hash. This file is the
 * key's format and its per-request lookup; `key-admin.ts` creates, lists and
 * revokes keys.
 */

/** The service's key prefix (CONTRACT.md §4: `<prefix>sk_<secret>`). */
export const KEY_PREFIX = 'bcat_';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const LEGACY_SECRET_LENGTH = 43;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}sk_[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
const LEGACY_KEY_SHAPE = new RegExp(`^${KEY_PREFIX}sk_[0-9A-Za-z]{${LEGACY_SECRET_LENGTH}}$`);

/** A number in base62, left-padded with zeros to `length`; a CRC-32 is exact in a double, so no BigInt is made per request. */
function base62(value: number, length: number): string {
  let n = value;
  let out = '';
  while (n > 0) {
    out = BASE62[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(length, '0');
}

/** The checksum of a key's body (prefix and random part): CRC-32 in 6 base62 characters. */
function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  // Rejection sampling keeps every character uniform: bytes of 248 or more are skipped (248 = 4 * 62).
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && random.length < RANDOM_LENGTH) random += BASE62[byte % 62];
    }
  }
  const body = `${KEY_PREFIX}sk_${random}`;
  return `${body}${checksum(body)}`;
}

/** True when a key of the current shape carries a valid checksum. */
export function hasValidChecksum(key: string): boolean {
  if (!KEY_SHAPE.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return key.slice(-CHECKSUM_LENGTH) === checksum(body);
}

/**
 * True for a key worth a database lookup: the current shape with a valid
 * checksum, or the exact shape of a key made before checksums. Anything else
 * is refused without touching the database.
 */
export function isWellFormedKey(key: string): boolean {
  return hasValidChecksum(key) || LEGACY_KEY_SHAPE.test(key);
}

export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * The families a restricted key may read (CONTRACT.md §4): those it names
 * and those of the areas it names. A key without a restriction reads every
 * family of its brands.
 */
export interface KeyRestriction {
  readonly families: ReadonlySet<string>;
  readonly areas: ReadonlySet<string>;
}

/** Who a key is, and what it may do with the brand a request names. */
export interface KeyGrant {
  readonly keyId: string;
  /** The brand of the path, or null when no brand has that slug. */
  readonly brand: { readonly id: string; readonly slug: string } | null;
  /** Whether the key may read that brand. */
  readonly allowed: boolean;
  /** When the key stops working (ISO 8601), or null. */
  readonly expiresAt: string | null;
  /** The families and areas the key is restricted to, or null: every family. */
  readonly restriction: KeyRestriction | null;
  /** The key's own requests per window, or null: the service's default (RATE_LIMIT_POINTS). */
  readonly rateLimit: number | null;
}

/** The channel `revokeKey` notifies on, with the key's id as payload, so instances drop cached grants at once. */
export const KEY_REVOKED_CHANNEL = 'bcat_key_revoked';

/**
 * The grant query for one key and one slug, given as SQL expressions: `?` for
 * a lookup of its own, the columns of an `unnest` row for the batched form
 * (find-grants.ts), so that both say the same thing of every pair. The live
 * key with this hash (not revoked, not expired), the brand of the slug (none
 * for a null slug), and whether the key covers it; no row: no such live key.
 */
export function grantQuery({ brandSlug, keyHash }: { brandSlug: string; keyHash: string }): string {
  return `select k.id as "keyId", b.id as "brandId", b.slug as "brandSlug", (k.is_global or kb.brand_id is not null) as "allowed",
            to_char(k.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "expiresAt",
            array_to_string(k.families, ',') as "families", array_to_string(k.areas, ',') as "areas", k.rate_limit as "rateLimit"
       from api_keys k
       left join brands b on b.slug = ${brandSlug}
       left join api_key_brands kb on kb.key_id = k.id and kb.brand_id = b.id
      where k.key_hash = ${keyHash} and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`;
}

/** A row of `grantQuery`: the lists as comma-separated text, the same from pg and PGlite (paths and areas hold no comma). */
export interface GrantRow {
  keyId: string;
  brandId: string | null;
  brandSlug: string | null;
  allowed: boolean;
  expiresAt: string | null;
  families: string;
  areas: string;
  rateLimit: number | null;
}

const listOf = (text: string): string[] => (text === '' ? [] : text.split(','));

export function grantOf(row: GrantRow): KeyGrant {
  const families = listOf(row.families);
  const areas = listOf(row.areas);
  return {
    keyId: row.keyId,
    brand: row.brandId ? { id: row.brandId, slug: row.brandSlug! } : null,
    allowed: row.allowed,
    expiresAt: row.expiresAt,
    restriction: families.length === 0 && areas.length === 0 ? null : Object.freeze({ families: new Set(families), areas: new Set(areas) }),
    rateLimit: row.rateLimit,
  };
}

const ONE_GRANT = grantQuery({ brandSlug: '?', keyHash: '?' });

/**
 * One round trip: the grant of a key for a brand slug (`grantQuery`). Null:
 * no such live key. It runs as the engine's reads run (query-rows.ts): a
 * prepared statement, planned once per connection, where the database keeps
 * them. Without the key cache every request makes this lookup, and planning
 * its joins was most of its cost (0.7 ms a lookup on the embedded database).
 */
export async function findGrant(db: Knex, { key, brandSlug }: { key: string; brandSlug: string | null }): Promise<KeyGrant | null> {
  const rows = (await queryRows(db, { sql: ONE_GRANT, bindings: [brandSlug, hashKey(key)] })) as unknown as GrantRow[];
  const row = rows[0];
  return row ? grantOf(row) : null;
}
