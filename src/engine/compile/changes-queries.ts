import { quoteIdentifier } from '../definition/naming.ts';
import type { Join, Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE } from './plan-sync.ts';
import { joinAlias, queryParts, recordJoins, type QueryParts } from './query-parts.ts';
import { column, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { planLabel } from './plan-label.ts';
import { seenNow, truncatedSince, truncationsOf } from './truncation-queries.ts';

/**
 * The SQL of one family's changes feed (CONTRACT.md §6), compiled once at boot.
 *
 * A record's version is the id of the newest transaction that wrote one of
 * the rows it is read from: its own row's `sync_xid` (a trigger sets it on
 * every insert and update) or a joined row's (a category renamed changes
 * every product's `category`). A deletion, or a row leaving the brand or
 * changing its id, writes a tombstone with the deleting transaction's id.
 *
 * A batch starts with a snapshot S; its token for the next batch is
 * `xmin(S)`: every transaction below it had finished when S was taken, so a
 * change not visible in S, committed later or still running, was written by
 * a transaction at or above it (and so was any later write of the same row).
 * A batch called with token `x` returns, in id order, every record whose
 * version is at least `x` (its current state) and every id with a tombstone
 * at least `x` and no live row. Each id's position is passed once, by a page
 * read after S: so every change committed before the batch began is in it,
 * as that state or a later one, and no record comes twice in a batch. A
 * record written again after its position was passed has a version at or
 * above `xmin(S)`: the next batch returns it. Nothing depends on clocks, nor
 * on how long a transaction ran.
 *
 * Why id order and not version order: a version changes when a record is
 * written during the batch, so a walk by version would pass over a record
 * rewritten behind it (its earlier change not delivered at the batch's end)
 * or meet it twice. An id does not move. And the cursor carries no snapshot.
 *
 * A `TRUNCATE` of the family's table, or of a table its records join, leaves
 * no tombstone: it records its transaction's id for the brands it reached
 * (plan-sync.ts). A batch after token `x` finds one at or above `x` in its
 * first statement (`truncated`) and is refused, so the client starts again.
 * The same argument holds: one committed before the batch's snapshot is
 * seen; one running then, or begun later, has an id at or above the next
 * token, and the next batch finds it. One the snapshot already saw is in
 * the copy the batch makes, so the token carries its id (`truncations`) and
 * the next batch does not count it: else a transaction holding `xmin` back
 * below a truncation would refuse every batch after it, full syncs' too.
 *
 * The cost: a small batch (at most SMALL_BATCH items, counted by the first
 * page through the `(brand_id, sync_xid, id)` index) reads each page from
 * that index and sorts at most that many ids; a larger one walks the
 * `(brand_id, id)` index and keeps the changed rows. Both bound a page's work.
 */
export interface ChangesQueries {
  /**
   * A batch's first statement: `xmin` of its snapshot and, after a token,
   * `items` (the batch's size, counted up to just past SMALL_BATCH per
   * source) and `truncated` (whether a TRUNCATE since the token, not one of
   * those it `seen`, removed rows of the brand it reads); and always
   * `truncations`, the ids of the TRUNCATEs at or above `xmin` the snapshot
   * sees, comma-separated.
   */
  start(args: { readonly brandId: string; readonly since: string | null; readonly seen: readonly string[] }): SqlFragment;
  /** One page in id order: `__id`, `__deleted`, and the record's fields (null for a delete). */
  page(args: PageArgs): SqlFragment;
  /** The rows of `page` as records (`QueryParts.decode`), in place. */
  decode: QueryParts['decode'];
}

/** How a batch reads its pages: every record (no token), few changes by the version index, or many by walking the ids. */
export type BatchWalk = 'full' | 'small' | 'large';

export interface PageArgs {
  readonly brandId: string;
  /** The token's xmin; null for a full sync. */
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

interface Sources {
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
 * The ids of records whose version is at least `since`, one statement per
 * source the version comes from. A small batch asks each index apart; a
 * large one compares the newest of them, an expression, so the planner walks
 * the id index (on a bare column it may pick the version index and sort the
 * whole batch on every page: new transaction ids are above the column's
 * statistics, which then promise a handful of rows).
 */
function changedRecords({ sources, args }: { sources: Sources; args: PageArgs }): SqlFragment[] {
  const scope = scopeCondition({ alias: 't', scope: sources.scope, brandId: args.brandId });
  const after = afterId('t', 'id', args.after);
  const select = `select t."id", false as "deleted" from ${sources.table} t`;
  if (args.walk === 'full') {
    return [{ sql: `${select} where ${scope.sql}${after.sql}${ID_ORDER}`, bindings: [...scope.bindings, ...after.bindings, args.limit] }];
  }
  if (args.walk === 'large') {
    const joins = sources.joins.map((join) => joinOn(join, args.brandId));
    const versions = [`t.${XID}`, ...sources.joins.map((join) => column(joinAlias(join.name), SYNC_COLUMN))].join(', ');
    return [{
      sql: `${select}${joins.map((join) => ` left join ${join.sql}`).join('')} where ${scope.sql}${after.sql} and greatest(${versions}) >= ?::xid8${ID_ORDER}`,
      bindings: [...joins.flatMap((join) => join.bindings), ...scope.bindings, ...after.bindings, args.since, args.limit],
    }];
  }
  const own = { sql: `${select} where ${scope.sql} and t.${XID} >= ?::xid8${after.sql}${ID_ORDER}`, bindings: [...scope.bindings, args.since, ...after.bindings, args.limit] };
  return [own, ...sources.joins.map((join) => {
    const on = joinOn(join, args.brandId);
    return {
      sql: `${select} join ${on.sql} where ${scope.sql} and ${column(joinAlias(join.name), SYNC_COLUMN)} >= ?::xid8${after.sql}${ID_ORDER}`,
      bindings: [...on.bindings, ...scope.bindings, args.since, ...after.bindings, args.limit],
    };
  })];
}

/** Ids with a tombstone at least `since` and no live row for the brand: one item each, however often it was deleted. */
function deletedRecords({ sources, args, resource }: { sources: Sources; args: PageArgs; resource: Resource }): SqlFragment {
  const scope = scopeCondition({ alias: 'g', scope: sources.tombstoneScope, brandId: args.brandId });
  const live = scopeCondition({ alias: 'r', scope: sources.scope, brandId: args.brandId });
  const after = afterId('g', 'row_id', args.after);
  const version = args.walk === 'large' ? `greatest(g.${XID})` : `g.${XID}`;
  return {
    sql: `select g."row_id" as "id", true as "deleted" from ${TOMBSTONES} g where g."table_name" = ? and ${scope.sql} and ${version} >= ?::xid8${after.sql}`
      + ` and not exists (select 1 from ${sources.table} r where r."id" = g."row_id" and ${live.sql}) group by g."row_id" order by g."row_id" limit ?`,
    bindings: [resource.table, ...scope.bindings, args.since, ...after.bindings, ...live.bindings, args.limit],
  };
}

/** Counts up to `SMALL_BATCH + 1` rows of one source: enough to tell a small batch. */
function upTo(fragment: SqlFragment): SqlFragment {
  return { sql: `(${fragment.sql} limit ${SMALL_BATCH + 1})`, bindings: fragment.bindings };
}

function batchSize({ sources, brandId, since, resource }: { sources: Sources; brandId: string; since: string; resource: Resource }): SqlFragment {
  const scope = scopeCondition({ alias: 't', scope: sources.scope, brandId });
  const tombstoneScope = scopeCondition({ alias: 'g', scope: sources.tombstoneScope, brandId });
  const counted = [
    upTo({ sql: `select 1 from ${sources.table} t where ${scope.sql} and t.${XID} >= ?::xid8`, bindings: [...scope.bindings, since] }),
    ...sources.joins.map((join) => {
      const on = joinOn(join, brandId);
      return upTo({ sql: `select 1 from ${sources.table} t join ${on.sql} where ${scope.sql} and ${column(joinAlias(join.name), SYNC_COLUMN)} >= ?::xid8`, bindings: [...on.bindings, ...scope.bindings, since] });
    }),
    upTo({ sql: `select 1 from ${TOMBSTONES} g where g."table_name" = ? and ${tombstoneScope.sql} and g.${XID} >= ?::xid8`, bindings: [resource.table, ...tombstoneScope.bindings, since] }),
  ];
  return { sql: `(select count(*) from (${counted.map((c) => c.sql).join(' union all ')}) c)::int`, bindings: counted.flatMap((c) => c.bindings) };
}

const SNAPSHOT_XMIN = 'pg_snapshot_xmin(pg_current_snapshot())::text as "xmin"';

export function compileChanges(resource: Resource): ChangesQueries {
  const parts = queryParts(resource);
  const sources: Sources = {
    table: quoteIdentifier(resource.table),
    scope: resource.scope,
    joins: recordJoins(resource),
    tombstoneScope: resource.scope === 'brand' ? 'brand' : 'shared',
  };
  const startLabel = planLabel(resource, 'changes start');
  const pageLabel = planLabel(resource, 'changes page');
  return {
    decode: parts.decode,

    start({ brandId, since, seen }) {
      const from = truncationsOf({ tables: [resource.table, ...sources.joins.map((join) => join.table)], brandId });
      const next = seenNow(from);
      if (since === null) return { sql: `select ${SNAPSHOT_XMIN}, ${next.sql}`, bindings: next.bindings, label: startLabel };
      const size = batchSize({ sources, brandId, since, resource });
      const truncated = truncatedSince({ from, since, seen });
      // Planned for the token's value: how few rows it selects decides the plan.
      return {
        sql: `select ${SNAPSHOT_XMIN}, ${size.sql} as "items", ${truncated.sql} as "truncated", ${next.sql}`,
        bindings: [...size.bindings, ...truncated.bindings, ...next.bindings],
        prepare: false,
        label: startLabel,
      };
    },

    page(args) {
      const keys = [...changedRecords({ sources, args }), ...(args.since === null ? [] : [deletedRecords({ sources, args, resource })])];
      const from = parts.from(args.brandId);
      const joins = from.sql.slice(`from ${parts.table} t`.length);
      const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId: args.brandId });
      // One statement, so one snapshot: a record is either live (an upsert) or not (a delete), never both in a page.
      return {
        sql: `with k as (select u."id", u."deleted" from (${keys.map((key) => `(${key.sql})`).join(' union ')}) u order by u."id" limit ?)`
          + ` select k."id"::text as "__id", k."deleted" as "__deleted", ${parts.selectList}`
          + ` from k left join ${parts.table} t on not k."deleted" and t."id" = k."id" and ${scope.sql}${joins} order by k."id"`,
        bindings: [...keys.flatMap((key) => key.bindings), args.limit, ...scope.bindings, ...from.bindings],
        // A small batch is planned for its token: the version index then serves it.
        prepare: args.walk !== 'small',
        label: pageLabel,
      };
    },
  };
}
