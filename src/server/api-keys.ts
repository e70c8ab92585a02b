import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * API keys: `bcat_sk_<secret>`, where the secret is 256 random bits in base62
 * (43 characters). Only the SHA-256 of the whole key is stored, and a key is
 * found by that hash; a key with that much entropy needs no slow hash.
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

export interface KeySummary {
  readonly id: string;
  readonly name: string | null;
  /** The key's last four characters, to tell keys apart. */
  readonly hint: string;
  readonly global: boolean;
  readonly brands: readonly string[];
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly createdAt: string;
}

export class KeyError extends Error {
  override name = 'KeyError';
}

/** Creates a key and returns it: the only time the whole key exists outside its holder. */
export async function createKey(db: Knex, { brands, global, expiresAt, name }: {
  brands: readonly string[];
  global: boolean;
  expiresAt: Date | null;
  name?: string | null;
}): Promise<{ id: string; key: string }> {
  if (global === brands.length > 0) throw new KeyError('a key is either global or scoped to one or more brands');
  const key = generateKey();
  return db.transaction(async (trx) => {
    const found = brands.length === 0 ? [] : ((await trx('brands').whereIn('slug', brands).select('id', 'slug')) as { id: string; slug: string }[]);
    const missing = brands.filter((slug) => !found.some((b) => b.slug === slug));
    if (missing.length > 0) throw new KeyError(`no brand with slug: ${missing.join(', ')}`);
    const [row] = (await trx('api_keys')
      .insert({ key_hash: hashKey(key), hint: key.slice(-4), name: name ?? null, is_global: global, expires_at: expiresAt })
      .returning('id')) as { id: string }[];
    if (found.length > 0) await trx('api_key_brands').insert(found.map((b) => ({ key_id: row!.id, brand_id: b.id })));
    return { id: row!.id, key };
  });
}

export async function listKeys(db: Knex): Promise<KeySummary[]> {
  const result = (await db.raw(
    `select k.id, k.name, k.hint, k.is_global as "global",
            coalesce(array_to_string(array(select b.slug from api_key_brands kb join brands b on b.id = kb.brand_id
              where kb.key_id = k.id order by b.slug), ','), '') as "brands",
            k.expires_at as "expiresAt", k.revoked_at as "revokedAt", k.created_at as "createdAt"
       from api_keys k order by k.created_at, k.id`,
  )) as { rows: (Omit<KeySummary, 'brands' | 'expiresAt' | 'revokedAt' | 'createdAt'> & { brands: string; expiresAt: Date | null; revokedAt: Date | null; createdAt: Date })[] };
  return result.rows.map((row) => ({
    ...row,
    brands: row.brands ? row.brands.split(',') : [],
    expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
    revokedAt: row.revokedAt ? new Date(row.revokedAt).toISOString() : null,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

/** Revokes a key at once; false when no live key has that id. */
export async function revokeKey(db: Knex, id: string): Promise<boolean> {
  const count = await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
  return Number(count) > 0;
}
