import { quoteIdentifier } from '../definition/naming.ts';
import type { Resource } from '../definition/resource.ts';
import { batchSize, changedRecords, deletedRecords, type PageArgs, type Sources } from './changes-sources.ts';
import { queryParts, recordJoins, type QueryParts } from './query-parts.ts';
import { scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { planLabel } from './plan-label.ts';
import { seenNow, truncatedSince, truncationsOf } from './truncation-queries.ts';
import { CURRENT_SNAPSHOT_SQL, xminOf } from './snapshot-text.ts';

/**
 * The SQL of one family's changes feed (CONTRACT.md §6), compiled once at boot.
 *
 * A record's version is the id of the newest transaction that wrote one of
 * the rows it is read from: its own row's `sync_xid` (a trigger sets it on
 * every insert and update) or a joined row's (a category renamed changes
 * every product's `category`). A deletion, or a row leaving the brand or
 * changing its id, writes a tombstone with the deleting transaction's id.
 *
 * A batch starts with a snapshot S; its token for the next batch is S
 * itself (snapshot-text.ts): a change not visible in S, committed later or
 * still running then, was written by a transaction S did not see (at or
 * above `xmax(S)`, or in progress in S), and so was any later write of the
 * same row. A batch called with token S returns, in id order, every record
 * with a version S did not see (its current state) and every id with a
 * tombstone S did not see and no live row. Each id's position is passed
 * once, by a page read after S: so every change committed before the batch
 * began is in it, as that state or a later one, and no record comes twice
 * in a batch. A record written again after its position was passed has a
 * version the batch's own snapshot did not see: the next batch returns it.
 * Nothing depends on clocks, nor on how long a transaction ran; and a
 * transaction left open beside the writers (which holds `xmin(S)` back)
 * makes no batch return again what the one before it saw.
 *
 * Why id order and not version order: a version changes when a record is
 * written during the batch, so a walk by version would pass over a record
 * rewritten behind it (its earlier change not delivered at the batch's end)
 * or meet it twice. An id does not move. And the cursor carries no snapshot.
 *
 * A `TRUNCATE` of the family's table, or of a table its records join, leaves
 * no tombstone: it records its transaction's id for the brands it reached
 * (plan-sync.ts). A batch after token S finds one at or above `xmin(S)` in
 * its first statement (`truncated`) and is refused, so the client starts again.
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
   * A batch's first statement: its `snapshot` (text) and, after a token,
   * `items` (the batch's size, counted up to just past SMALL_BATCH per
   * source) and `truncated` (whether a TRUNCATE since the token, not one of
   * those it `seen`, removed rows of the brand it reads); and always
   * `truncations`, the ids of the TRUNCATEs at or above its `xmin` the snapshot
   * sees, comma-separated.
   */
  start(args: { readonly brandId: string; readonly since: string | null; readonly seen: readonly string[] }): SqlFragment;
  /** One page in id order: `__id`, `__deleted`, and the record's fields (null for a delete). */
  page(args: PageArgs): SqlFragment;
  /** A row of `page` as its record (`QueryParts.record`). */
  record: QueryParts['record'];
}

export { SMALL_BATCH, type BatchWalk, type PageArgs } from './changes-sources.ts';

const SNAPSHOT = `${CURRENT_SNAPSHOT_SQL} as "snapshot"`;

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
    record: parts.record,

    start({ brandId, since, seen }) {
      const from = truncationsOf({ tables: [resource.table, ...sources.joins.map((join) => join.table)], brandId });
      const next = seenNow(from);
      if (since === null) return { sql: `select ${SNAPSHOT}, ${next.sql}`, bindings: next.bindings, label: startLabel };
      const size = batchSize({ sources, brandId, since, resource });
      const truncated = truncatedSince({ from, since: xminOf(since), seen });
      // Planned for the token's value: how few rows it selects decides the plan.
      return {
        sql: `select ${SNAPSHOT}, ${size.sql} as "items", ${truncated.sql} as "truncated", ${next.sql}`,
        bindings: [...size.bindings, ...truncated.bindings, ...next.bindings],
        prepare: false,
        label: startLabel,
      };
    },

    page(args) {
      const keys = [...changedRecords({ sources, args }), ...(args.since === null ? [] : [deletedRecords({ sources, args: { ...args, since: args.since }, resource })])];
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
