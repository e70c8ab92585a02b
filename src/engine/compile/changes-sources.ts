import { quoteIdentifier } from '../definition/naming.ts';
import type { Join, Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE } from './plan-sync.ts';
import { joinAlias } from './query-parts.ts';
import { column, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { xminOf } from './snapshot-text.ts';

/**
 * Where a changes batch finds its ids (why, in changes-queries.ts): the
 * family's rows, the rows its records join, and the tombstones, each asked
 * for the versions a token's snapshot did not see.
 */

/** How a batch reads its pages: every record (no token), few changes by the version index, or many by walking the ids. */
export type BatchWalk = 'full' | 'small' | 'large';

export interface PageArgs {
  readonly brandId: string;
  /** The token's snapshot (snapshot-text.ts); null for a full sync. */
  readonly since: string | null;
  readonly walk: BatchWalk;
  /** The last id of the previous page. */
  readonly after: string | null;
  readonly limit: number;
}

/** Above this many changes a batch walks the ids: a page of a small one sorts at most this many. */
export const SMALL_BATCH = 10_000;

const XID = quoteIdentifier(SYNC_COLUMN);
const TOMBSTONES = quoteIdentifier(TOMBSTONE_TABLE);
const ID_ORDER = ' order by t."id" limit ?';

export interface Sources {
  readonly table: string;
  readonly scope: Scope;
  readonly joins: readonly Join[];
  readonly tombstoneScope: Scope;
}

/** `<join table> j_x on j_x.foreign = t.local and <brand>`: how a record reads a joined row. */
function joinOn(join: Join, brandId: string): SqlFragment {
  const alias = joinAlias(join.name);
  const scope = scopeCondition({ alias, scope: join.scope, brandId });
  return { sql: `${quoteIdentifier(join.table)} ${alias} on ${column(alias, join.foreignColumn)} = ${column('t', join.localColumn)} and ${scope.sql}`, bindings: scope.bindings };
}

const afterId = (alias: string, idColumn: string, after: string | null): SqlFragment =>
  after === null ? { sql: '', bindings: [] } : { sql: ` and ${alias}."${idColumn}" > ?::uuid`, bindings: [after] };

/**
 * Versions the token's snapshot `since` did not see. The bound on its
 * `xmin` (below which it saw every version) lets the `(brand_id, sync_xid,
 * id)` index serve a small batch; the snapshot then drops what it saw above
 * `xmin` (snapshot-text.ts). A version that is null (a left join that found
 * no row) is no change.
 */
function unseen(versions: readonly string[], since: string): SqlFragment {
  const bound = versions.length === 1 ? versions[0]! : `greatest(${versions.join(', ')})`;
  const notSeen = versions.map((version) => `not pg_visible_in_snapshot(${version}, ?::pg_snapshot)`);
  return {
    sql: `${bound} >= ?::xid8 and ${notSeen.length === 1 ? notSeen[0] : `(${notSeen.join(' or ')})`}`,
    bindings: [xminOf(since), ...versions.map(() => since)],
  };
}

/**
 * The ids of records with a version `since` did not see, one statement per
 * source the version comes from. A small batch asks each index apart; a
 * large one compares the newest of them, an expression, so the planner walks
 * the id index (on a bare column it may pick the version index and sort the
 * whole batch on every page: new transaction ids are above the column's
 * statistics, which then promise a handful of rows).
 */
export function changedRecords({ sources, args }: { sources: Sources; args: PageArgs }): SqlFragment[] {
  const scope = scopeCondition({ alias: 't', scope: sources.scope, brandId: args.brandId });
  const after = afterId('t', 'id', args.after);
  const select = `select t."id", false as "deleted" from ${sources.table} t`;
  if (args.since === null || args.walk === 'full') {
    return [{ sql: `${select} where ${scope.sql}${after.sql}${ID_ORDER}`, bindings: [...scope.bindings, ...after.bindings, args.limit] }];
  }
  if (args.walk === 'large') {
    const joins = sources.joins.map((join) => joinOn(join, args.brandId));
    const changed = unseen([`t.${XID}`, ...sources.joins.map((join) => column(joinAlias(join.name), SYNC_COLUMN))], args.since);
    return [{
      sql: `${select}${joins.map((join) => ` left join ${join.sql}`).join('')} where ${scope.sql}${after.sql} and ${changed.sql}${ID_ORDER}`,
      bindings: [...joins.flatMap((join) => join.bindings), ...scope.bindings, ...after.bindings, ...changed.bindings, args.limit],
    }];
  }
  const own = unseen([`t.${XID}`], args.since);
  const ownIds = { sql: `${select} where ${scope.sql} and ${own.sql}${after.sql}${ID_ORDER}`, bindings: [...scope.bindings, ...own.bindings, ...after.bindings, args.limit] };
  const since = args.since;
  return [ownIds, ...sources.joins.map((join) => {
    const on = joinOn(join, args.brandId);
    const joined = unseen([column(joinAlias(join.name), SYNC_COLUMN)], since);
    return {
      sql: `${select} join ${on.sql} where ${scope.sql} and ${joined.sql}${after.sql}${ID_ORDER}`,
      bindings: [...on.bindings, ...scope.bindings, ...joined.bindings, ...after.bindings, args.limit],
    };
  })];
}

/** Ids with a tombstone `since` did not see and no live row for the brand: one item each, however often it was deleted. */
export function deletedRecords({ sources, args, resource }: { sources: Sources; args: PageArgs & { since: string }; resource: Resource }): SqlFragment {
  const scope = scopeCondition({ alias: 'g', scope: sources.tombstoneScope, brandId: args.brandId });
  const live = scopeCondition({ alias: 'r', scope: sources.scope, brandId: args.brandId });
  const after = afterId('g', 'row_id', args.after);
  const deleted = unseen([args.walk === 'large' ? `greatest(g.${XID})` : `g.${XID}`], args.since);
  return {
    sql: `select g."row_id" as "id", true as "deleted" from ${TOMBSTONES} g where g."table_name" = ? and ${scope.sql} and ${deleted.sql}${after.sql}`
      + ` and not exists (select 1 from ${sources.table} r where r."id" = g."row_id" and ${live.sql}) group by g."row_id" order by g."row_id" limit ?`,
    bindings: [resource.table, ...scope.bindings, ...deleted.bindings, ...after.bindings, ...live.bindings, args.limit],
  };
}

/** Counts up to `SMALL_BATCH + 1` rows of one source: enough to tell a small batch. */
function upTo(fragment: SqlFragment): SqlFragment {
  return { sql: `(${fragment.sql} limit ${SMALL_BATCH + 1})`, bindings: fragment.bindings };
}

/** The batch's size after a token of snapshot `since`, counted up to just past SMALL_BATCH per source. */
export function batchSize({ sources, brandId, since, resource }: { sources: Sources; brandId: string; since: string; resource: Resource }): SqlFragment {
  const scope = scopeCondition({ alias: 't', scope: sources.scope, brandId });
  const tombstoneScope = scopeCondition({ alias: 'g', scope: sources.tombstoneScope, brandId });
  const own = unseen([`t.${XID}`], since);
  const deleted = unseen([`g.${XID}`], since);
  const counted = [
    upTo({ sql: `select 1 from ${sources.table} t where ${scope.sql} and ${own.sql}`, bindings: [...scope.bindings, ...own.bindings] }),
    ...sources.joins.map((join) => {
      const on = joinOn(join, brandId);
      const joined = unseen([column(joinAlias(join.name), SYNC_COLUMN)], since);
      return upTo({ sql: `select 1 from ${sources.table} t join ${on.sql} where ${scope.sql} and ${joined.sql}`, bindings: [...on.bindings, ...scope.bindings, ...joined.bindings] });
    }),
    upTo({ sql: `select 1 from ${TOMBSTONES} g where g."table_name" = ? and ${tombstoneScope.sql} and ${deleted.sql}`, bindings: [resource.table, ...tombstoneScope.bindings, ...deleted.bindings] }),
  ];
  return { sql: `(select count(*) from (${counted.map((c) => c.sql).join(' union all ')}) c)::int`, bindings: counted.flatMap((c) => c.bindings) };
}
