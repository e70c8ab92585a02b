import type { Knex } from 'knex';
import { generateKey, hashKey, KEY_REVOKED_CHANNEL } from './api-keys.ts';
import { checkKeyScope, type KeyScope, type KnownFamilies } from './key-scope.ts';

/** Creating, listing, rotating and revoking API keys: what the `keys` command does. */

export interface KeySummary {
  readonly id: string;
  readonly name: string | null;
  /** The key's last four characters, to tell keys apart. */
  readonly hint: string;
  readonly global: boolean;
  readonly brands: readonly string[];
  /** The families and areas it is restricted to; both empty: every family. */
  readonly families: readonly string[];
  readonly areas: readonly string[];
  /** Its own requests per window, or null: the service's default. */
  readonly rateLimit: number | null;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  /** When an instance last served it, to the minute (key-usage.ts), or null: never. */
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
}

export class KeyError extends Error {
  override name = 'KeyError';
}

export { type KeyScope, type KnownFamilies };

/**
 * Creates a key and returns it: the only time the whole key exists outside
 * its holder. A restricted key's families and areas are checked against
 * `known` (the registry's): an unknown one is refused, naming it, and
 * nothing is created.
 */
export async function createKey(db: Knex, { brands, global, expiresAt, name, families = [], areas = [], rateLimit = null, known }: KeyScope & {
  brands: readonly string[];
  global: boolean;
  expiresAt: Date | null;
  name?: string | null;
  /** The families and areas there are; needed when the key names any. */
  known?: KnownFamilies;
}): Promise<{ id: string; key: string }> {
  if (global === brands.length > 0) throw new KeyError('a key is either global or scoped to one or more brands');
  const problem = checkKeyScope({ families, areas, rateLimit, known });
  if (problem) throw new KeyError(problem);
  const key = generateKey();
  return db.transaction(async (trx) => {
    const found = brands.length === 0 ? [] : ((await trx('brands').whereIn('slug', brands).select('id', 'slug')) as { id: string; slug: string }[]);
    const missing = brands.filter((slug) => !found.some((b) => b.slug === slug));
    if (missing.length > 0) throw new KeyError(`no brand with slug: ${missing.join(', ')}`);
    const [row] = (await trx('api_keys')
      .insert({
        key_hash: hashKey(key), hint: key.slice(-4), name: name ?? null, is_global: global, expires_at: expiresAt,
        families: [...new Set(families)], areas: [...new Set(areas)], rate_limit: rateLimit,
      })
      .returning('id')) as { id: string }[];
    if (found.length > 0) await trx('api_key_brands').insert(found.map((b) => ({ key_id: row!.id, brand_id: b.id })));
    return { id: row!.id, key };
  });
}

type SummaryRow = Omit<KeySummary, 'brands' | 'families' | 'areas' | 'expiresAt' | 'revokedAt' | 'lastUsedAt' | 'createdAt'> & {
  brands: string; families: string; areas: string;
  expiresAt: Date | null; revokedAt: Date | null; lastUsedAt: Date | null; createdAt: Date;
};

const SUMMARY = `select k.id, k.name, k.hint, k.is_global as "global",
    coalesce(array_to_string(array(select b.slug from api_key_brands kb join brands b on b.id = kb.brand_id
      where kb.key_id = k.id order by b.slug), ','), '') as "brands",
    array_to_string(k.families, ',') as "families", array_to_string(k.areas, ',') as "areas", k.rate_limit as "rateLimit",
    k.expires_at as "expiresAt", k.revoked_at as "revokedAt", date_trunc('minute', k.last_used_at) as "lastUsedAt", k.created_at as "createdAt"
  from api_keys k`;

const listOf = (text: string): string[] => (text ? text.split(',') : []);
const isoOf = (date: Date | null): string | null => (date ? new Date(date).toISOString() : null);

function summaryOf(row: SummaryRow): KeySummary {
  return {
    ...row,
    brands: listOf(row.brands),
    families: listOf(row.families),
    areas: listOf(row.areas),
    expiresAt: isoOf(row.expiresAt),
    revokedAt: isoOf(row.revokedAt),
    lastUsedAt: isoOf(row.lastUsedAt),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function listKeys(db: Knex): Promise<KeySummary[]> {
  const result = (await db.raw(`${SUMMARY} order by k.created_at, k.id`)) as { rows: SummaryRow[] };
  return result.rows.map(summaryOf);
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

/**
 * Rotates a live key (CONTRACT.md §5): a new key with the same brands,
 * families, areas, limit, name and expiry, and the old one ends after
 * `overlapMs` (sooner if it was to expire sooner); `0` ends it at once, as
 * a revocation does. Every instance drops its cached grant of the old key
 * (the revocation notice), so the new end holds everywhere at once. Null:
 * no live key has that id.
 */
export async function rotateKey(db: Knex, { id, overlapMs }: { id: string; overlapMs: number }): Promise<{ id: string; key: string; oldExpiresAt: string } | null> {
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0) throw new KeyError('the overlap is a whole number of milliseconds, 0 or more');
  return db.transaction(async (trx) => {
    const live = (await trx.raw(`${SUMMARY} where k.id = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) for update of k`, [id])) as { rows: SummaryRow[] };
    const old = live.rows[0] ? summaryOf(live.rows[0]) : null;
    if (!old) return null;
    const key = generateKey();
    const [row] = (await trx('api_keys')
      .insert({
        key_hash: hashKey(key), hint: key.slice(-4), name: old.name, is_global: old.global, expires_at: old.expiresAt,
        families: old.families, areas: old.areas, rate_limit: old.rateLimit,
      })
      .returning('id')) as { id: string }[];
    await trx.raw('insert into api_key_brands (key_id, brand_id) select ?, brand_id from api_key_brands where key_id = ?', [row!.id, id]);
    const ends = (await trx.raw(
      overlapMs === 0
        ? `update api_keys set revoked_at = now() where id = ? returning to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "at"`
        : `update api_keys set expires_at = least(coalesce(expires_at, 'infinity'), now() + ? * interval '1 millisecond') where id = ?
             returning to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "at"`,
      overlapMs === 0 ? [id] : [overlapMs, id],
    )) as { rows: { at: string }[] };
    await trx.raw('select pg_notify(?, ?)', [KEY_REVOKED_CHANNEL, id]);
    return { id: row!.id, key, oldExpiresAt: ends.rows[0]!.at };
  });
}
