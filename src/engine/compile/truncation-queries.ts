import { quoteIdentifier } from '../definition/naming.ts';
import { SYNC_COLUMN, TRUNCATION_TABLE } from './plan-sync.ts';
import { scopeCondition, type SqlFragment } from './sql-fragment.ts';

/**
 * What a changes batch's first statement asks of the records of TRUNCATEs
 * (plan-sync.ts; why, in changes-queries.ts): whether one since the token
 * reached the batch's rows, and which ones its own snapshot already sees.
 */

const XID = quoteIdentifier(SYNC_COLUMN);

/** `from ... where`: the truncations of the given tables that reached the brand's rows (or every brand's: a null brand). */
export function truncationsOf({ tables, brandId }: { tables: readonly string[]; brandId: string }): SqlFragment {
  const unique = [...new Set(tables)];
  const brand = scopeCondition({ alias: 'x', scope: 'shared', brandId });
  return {
    sql: `from ${quoteIdentifier(TRUNCATION_TABLE)} x where x."table_name" in (${unique.map(() => '?').join(', ')}) and ${brand.sql}`,
    bindings: [...unique, ...brand.bindings],
  };
}

/** Whether one at or above `since` (the token's xmin), and not among those the token's snapshot saw (`seen`), removed rows the batch would read. */
export function truncatedSince({ from, since, seen }: { from: SqlFragment; since: string; seen: readonly string[] }): SqlFragment {
  return {
    sql: `exists (select 1 ${from.sql} and x.${XID} >= ?::xid8 and not (x.${XID}::text = any(string_to_array(?, ','))))`,
    bindings: [...from.bindings, since, seen.join(',')],
  };
}

/** The ids of those at or above this snapshot's xmin that it sees, comma-separated: the next token's. */
export function seenNow(from: SqlFragment): SqlFragment {
  return {
    sql: `array_to_string(array(select distinct x.${XID}::text ${from.sql} and x.${XID} >= pg_snapshot_xmin(pg_current_snapshot()) order by 1), ',') as "truncations"`,
    bindings: from.bindings,
  };
}
