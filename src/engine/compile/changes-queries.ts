import type { Resource } from '../definition/resource.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE } from './plan-sync.ts';
import { queryParts, quoteAlias, type QueryParts } from './query-parts.ts';
import { scopeCondition, type SqlFragment } from './sql-fragment.ts';

/**
 * The SQL of one family's changes feed (CONTRACT.md §6), compiled once at boot.
 *
 * Why it never misses a change. Every row carries `sync_xid`, the id of the
 * transaction that last wrote it (a trigger sets it; a deletion writes a
 * tombstone with the deleting transaction's id). A batch starts by taking a
 * snapshot S (`pg_current_snapshot()`): it tells, for every transaction id,
 * whether that transaction had committed when S was taken. Every page of the
 * batch reads only items whose `sync_xid` is visible in S, and at least the
 * token's `xmin`; the batch's token is `xmin(S)`, below which every
 * transaction had finished (committed or aborted) when S was taken.
 *
 * Take a change committed by transaction X, and the first batch k whose
 * snapshot S_k sees X commit. If k is the first batch (a full sync, no lower
 * bound), it returns X's row. Otherwise S_{k-1} did not see X commit, so X
 * was running or not yet started then, so X >= xmin(S_{k-1}), the token
 * batch k was called with: batch k's bounds let X's row in. A transaction
 * that began before a call and commits after it is invisible to that call's
 * snapshot and at least its xmin, so the NEXT batch returns it, however long
 * it ran and whatever its `updated_at` says. If X's row was written again by
 * a later transaction Y, the row carries Y and is returned when Y is visible:
 * a later state of the same record.
 *
 * Why nothing comes twice in one batch. Items are read in `(sync_xid, id)`
 * order by keyset, and the set a batch walks is fixed by S: a row's version
 * visible in S is read at one position only; if the row is written again
 * during the batch, its new `sync_xid` is not visible in S and it leaves the
 * batch (the next one returns it). A tombstone is read only while its id has
 * no row for the brand and no newer tombstone (in S or not), so per id only
 * the newest, and only while that one is in S: so a row returned as an upsert and deleted later in the batch does
 * not come back as the delete of an older tombstone, and a row deleted and
 * inserted again is one upsert.
 *
 * Later pages run in statements newer than S: the visibility test against S
 * (carried in the cursor) keeps them to S's set.
 */
export interface ChangesQueries {
  /** The snapshot a batch's first page is read in, as text. */
  snapshot(): SqlFragment;
  /** Rows of the batch's set after `after`, in `(sync_xid, id)` order, at most `limit`, each with `__xid`. */
  upserts(args: ChangesArgs): SqlFragment;
  /** Deleted ids of the batch's set after `after`, the same way: `id` and `__xid`. */
  deletes(args: ChangesArgs): SqlFragment;
  /** The rows of `upserts` as records (`QueryParts.decode`), in place. */
  decode: QueryParts['decode'];
}

export interface ChangesArgs {
  readonly brandId: string;
  /** The batch's snapshot, as text. */
  readonly snapshot: string;
  /** The token's xmin; null for a full sync (no deletes, every row). */
  readonly since: string | null;
  readonly after: { readonly xid: string; readonly id: string } | null;
  readonly limit: number;
}

/** Name of the hidden column that carries an item's `sync_xid`; removed before responding. */
export const XID_COLUMN = '__xid';

const XID = `"${SYNC_COLUMN}"`;

/** `alias.sync_xid` within the batch's bounds and after the keyset position. */
function bounds({ alias, idColumn, args }: { alias: string; idColumn: string; args: ChangesArgs }): SqlFragment {
  const since = args.since === null ? { sql: '', bindings: [] } : { sql: ` and ${alias}.${XID} >= ?::xid8`, bindings: [args.since] };
  const after = args.after === null
    ? { sql: '', bindings: [] }
    : { sql: ` and (${alias}.${XID}, ${alias}."${idColumn}") > (?::xid8, ?::uuid)`, bindings: [args.after.xid, args.after.id] };
  return {
    sql: `pg_visible_in_snapshot(${alias}.${XID}, ?::pg_snapshot)${since.sql}${after.sql}`,
    bindings: [args.snapshot, ...since.bindings, ...after.bindings],
  };
}

export function compileChanges(resource: Resource): ChangesQueries {
  const parts = queryParts(resource);
  const xidSelect = `t.${XID}::text as ${quoteAlias(XID_COLUMN)}`;
  return {
    decode: parts.decode,
    snapshot: () => ({ sql: 'select pg_current_snapshot()::text as "snapshot"', bindings: [] }),

    upserts(args) {
      const source = parts.from(args.brandId);
      const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId: args.brandId });
      const window = bounds({ alias: 't', idColumn: 'id', args });
      return {
        sql: `select ${parts.selectList}, ${xidSelect} ${source.sql} where ${scope.sql} and ${window.sql} order by t.${XID}, t."id" limit ?`,
        bindings: [...source.bindings, ...scope.bindings, ...window.bindings, args.limit],
      };
    },

    deletes(args) {
      const scope = scopeCondition({ alias: 'g', scope: resource.scope === 'brand' ? 'brand' : 'shared', brandId: args.brandId });
      const window = bounds({ alias: 'g', idColumn: 'row_id', args });
      const live = scopeCondition({ alias: 'r', scope: resource.scope, brandId: args.brandId });
      const newer = scopeCondition({ alias: 'h', scope: resource.scope === 'brand' ? 'brand' : 'shared', brandId: args.brandId });
      // Keyset over the tombstone index; per candidate, two lookups by id (the row, newer tombstones): a page costs its size.
      return {
        sql: `select d."row_id"::text as "id", d.${XID}::text as ${quoteAlias(XID_COLUMN)} from (`
          // Distinct: a row deleted twice in one transaction has two equal tombstones.
          + `select distinct g."row_id", g.${XID} from "${TOMBSTONE_TABLE}" g`
          + ` where g."table_name" = ? and ${scope.sql} and ${window.sql}`
          + ` and not exists (select 1 from "${resource.table}" r where r."id" = g."row_id" and ${live.sql})`
          + ` and not exists (select 1 from "${TOMBSTONE_TABLE}" h where h."table_name" = g."table_name" and h."row_id" = g."row_id"`
          + ` and ${newer.sql} and (h.${XID} > g.${XID} or not pg_visible_in_snapshot(h.${XID}, ?::pg_snapshot)))`
          + ` order by g.${XID}, g."row_id" limit ?) d order by d.${XID}, d."row_id"`,
        bindings: [resource.table, ...scope.bindings, ...window.bindings, ...live.bindings, ...newer.bindings, args.snapshot, args.limit],
      };
    },
  };
}
