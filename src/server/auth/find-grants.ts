import type { Knex } from 'knex';
import { grantOf, grantQuery, type GrantRow, type KeyGrant } from './api-keys.ts';

/** A key, by its hash, and a brand slug: what the key cache holds a grant for. */
export interface GrantPair {
  readonly keyHash: string;
  readonly brandSlug: string | null;
}

/**
 * Every pair's row is `grantQuery` itself, run in a lateral subquery over one
 * row of `unnest(...) with ordinality`: each pair is answered exactly as
 * `findGrant` answers it alone, and comes back tagged with its place.
 */
const MANY_GRANTS =
  'select p.i as "pair", g.* from unnest(?::text[], ?::text[]) with ordinality as p(brand_slug, key_hash, i)'
  + ` cross join lateral (${grantQuery({ brandSlug: 'p.brand_slug', keyHash: 'p.key_hash' })}) g`;

/**
 * The batched form of `findGrant`: the grants of many pairs in one statement
 * (the key cache's refresh, key-cache.ts). In the pairs' order, each pair's
 * grant, or null where findGrant would say null (the key is revoked, expired
 * or unknown).
 */
export async function findGrants(db: Knex, pairs: readonly GrantPair[]): Promise<(KeyGrant | null)[]> {
  const grants: (KeyGrant | null)[] = pairs.map(() => null);
  if (pairs.length === 0) return grants;
  // One array per column (pg and PGlite bind an array as one value; a null slug is a null element).
  const columns = [pairs.map((pair) => pair.brandSlug), pairs.map((pair) => pair.keyHash)] as unknown as Knex.RawBinding[];
  const result = (await db.raw(MANY_GRANTS, columns)) as {
    rows: (GrantRow & { pair: string | number })[];
  };
  for (const row of result.rows) grants[Number(row.pair) - 1] = grantOf(row);
  return grants;
}
