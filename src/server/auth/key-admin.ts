import type { Knex } from 'knex';
import { generateKey, hashKey, KEY_REVOKED_CHANNEL } from './api-keys.ts';

/** Creating, listing and revoking API keys: what the `keys` command does. */

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

/**
 * Revokes a key at once; false when no live key has that id. The same
 * transaction notifies every serving instance, which drops the key from its
 * cache when the revocation commits.
 */
export async function revokeKey(db: Knex, id: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const count = await trx('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    if (Number(count) === 0) return false;
    await trx.raw('select pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, id]);
    return true;
  });
}
