import { quoteIdentifier } from '../definition/naming.ts';
import type { Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE, TRUNCATION_TABLE } from './plan-sync.ts';
import { scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { planLabel } from './plan-label.ts';
import { fromXmin, parseSnapshot, xminOf } from './snapshot-text.ts';

/**
 * Whether any row a family's count of one brand may read has changed since a
 * snapshot: what lets a remembered count stay exact while other brands, and
 * other families, are written (`ExactCounts`).
 *
 * A count remembers the snapshot it ran in (snapshot-text.ts). A
 * transaction that commits a change the count did not see was running then
 * (in the snapshot's list) or not yet begun (its id at or above the
 * snapshot's `xmax`), and the change feed's triggers stamp its id on what it
 * wrote: the rows it inserted or updated (`sync_xid`) and the tombstones of
 * the rows it deleted or moved away. So the count still holds when no row
 * of the brand, in the family's table or a table its filters join, and no
 * tombstone of theirs, carries an id at or above `xmax`, and no transaction
 * the count saw running has ended since. Each table is asked for its newest
 * id by the `(brand_id, sync_xid, id)` index: one index probe each, whatever
 * the table's size. A transaction still running now changes nothing the next
 * page can see: it is asked again then. And a transaction left open
 * elsewhere (which holds every snapshot's `xmin` back) does not make every
 * count run again. One that ended having written nothing of the brand costs
 * one count more, never a wrong one.
 */
export function compileChangedSince(resource: Resource): (args: { brandId: string; snapshot: string }) => SqlFragment {
  const tables: { table: string; scope: Scope }[] = [
    { table: resource.table, scope: resource.scope },
    ...Object.values(resource.joins).map((join) => ({ table: join.table, scope: join.scope })),
  ];
  const unique = tables.filter((entry, i) => tables.findIndex((other) => other.table === entry.table) === i);
  const newest = (brandId: string): SqlFragment[] => unique.flatMap(({ table, scope }) => {
    const rows = scopeCondition({ alias: 'r', scope, brandId });
    const tombstones = scopeCondition({ alias: 'g', scope: scope === 'brand' ? 'brand' : 'shared', brandId });
    // A null brand: the truncation reached every brand.
    const truncations = scopeCondition({ alias: 'x', scope: 'shared', brandId });
    return [
      { sql: `(select max(r."${SYNC_COLUMN}") from ${quoteIdentifier(table)} r where ${rows.sql})`, bindings: rows.bindings },
      {
        sql: `(select max(g."${SYNC_COLUMN}") from "${TOMBSTONE_TABLE}" g where g."table_name" = ? and ${tombstones.sql})`,
        bindings: [table, ...tombstones.bindings],
      },
      {
        sql: `(select max(x."${SYNC_COLUMN}") from "${TRUNCATION_TABLE}" x where x."table_name" = ? and ${truncations.sql})`,
        bindings: [table, ...truncations.bindings],
      },
    ];
  });
  const label = planLabel(resource, 'count check');
  return ({ brandId, snapshot }) => {
    const probes = newest(brandId);
    const seen = parseSnapshot(snapshot) ?? parseSnapshot(fromXmin(xminOf(snapshot)))!;
    // Ended: no longer in progress for this statement's own snapshot.
    const ended = 'exists (select 1 from unnest(?::xid8[]) as r(x) where pg_visible_in_snapshot(r.x, pg_current_snapshot()))';
    return {
      sql: `select (coalesce(greatest(${probes.map((probe) => probe.sql).join(', ')}) >= ?::xid8, false) or ${ended}) as "changed"`,
      bindings: [...probes.flatMap((probe) => probe.bindings), seen.xmax.toString(), `{${seen.xip.join(',')}}`],
      label,
    };
  };
}
