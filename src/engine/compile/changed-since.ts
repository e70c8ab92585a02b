import { quoteIdentifier } from '../definition/naming.ts';
import type { Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE, TRUNCATION_TABLE } from './plan-sync.ts';
import { joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { planLabel } from './plan-label.ts';
import { CURRENT_SNAPSHOT_SQL, fromXmin, parseSnapshot, xminOf } from './snapshot-text.ts';

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
 * the rows it deleted or moved away (a row written again later carries the
 * later writer's id, which is one of those two kinds too). So the count
 * still holds when no row of the brand, in the family's table or a table its
 * filters join, and no tombstone or truncation of theirs, carries an id at or
 * above `xmax` or one of the ids in progress then. Each table is asked for
 * its newest id, and whether it holds one of those ids, by the
 * `(brand_id, sync_xid, id)` index: a few index probes each, whatever the
 * table's size. A transaction still running now changes nothing the next
 * page can see: it is asked again then.
 *
 * The statement also says its own snapshot: when nothing changed, a count
 * holds as of it; when something did, the count made next starts after it,
 * and a request arriving during that count asks from there whether the count
 * will hold for it too (db/counts/exact-counts.ts).
 *
 * Why the ids in progress are looked for in the rows, not asked whether they
 * ended: transaction ids are the cluster's, and on a server written all day
 * a count's snapshot nearly always lists some (another brand's writes, other
 * databases' sessions). Asking whether any of them ended would count a big
 * brand again after almost every write anywhere; looking for their stamps
 * counts again only after one wrote something of the brand. A transaction
 * left open elsewhere (which holds every snapshot's `xmin` back) costs
 * nothing either.
 */
export function compileChangedSince(resource: Resource): (args: { brandId: string; snapshot: string }) => SqlFragment {
  const tables: { table: string; scope: Scope }[] = [
    { table: resource.table, scope: resource.scope },
    ...Object.values(resource.joins).map((join) => ({ table: join.table, scope: join.scope })),
  ];
  const unique = tables.filter((entry, i) => tables.findIndex((other) => other.table === entry.table) === i);
  // Per table: its rows of the brand, their tombstones, its truncations (a null brand: one that reached every brand).
  const sources = (brandId: string): { from: string; where: SqlFragment }[] => unique.flatMap(({ table, scope }) => {
    const rows = scopeCondition({ alias: 's', scope, brandId });
    const tombstones = scopeCondition({ alias: 's', scope: scope === 'brand' ? 'brand' : 'shared', brandId });
    const truncations = scopeCondition({ alias: 's', scope: 'shared', brandId });
    return [
      { from: quoteIdentifier(table), where: rows },
      { from: `"${TOMBSTONE_TABLE}"`, where: { sql: `s."table_name" = ? and ${tombstones.sql}`, bindings: [table, ...tombstones.bindings] } },
      { from: `"${TRUNCATION_TABLE}"`, where: { sql: `s."table_name" = ? and ${truncations.sql}`, bindings: [table, ...truncations.bindings] } },
    ];
  });
  const label = planLabel(resource, 'count check');
  return ({ brandId, snapshot }) => {
    const seen = parseSnapshot(snapshot) ?? parseSnapshot(fromXmin(xminOf(snapshot)))!;
    const each = sources(brandId);
    // Begun after the snapshot: the newest id of each source, at or above `xmax`.
    const newest = each.map(({ from, where }) => ({ sql: `(select max(s."${SYNC_COLUMN}") from ${from} s where ${where.sql})`, bindings: where.bindings }));
    const after = {
      sql: `coalesce(greatest(${newest.map((probe) => probe.sql).join(', ')}) >= ?::xid8, false)`,
      bindings: [...newest.flatMap((probe) => probe.bindings), seen.xmax.toString()],
    };
    // In progress then: a stamp of one of those ids (committed, or this statement would not see it).
    const during = seen.xip.length === 0 ? [] : each.map(({ from, where }) => ({
      sql: `exists (select 1 from ${from} s where ${where.sql} and s."${SYNC_COLUMN}" = any(?::xid8[]))`,
      bindings: [...where.bindings, `{${seen.xip.join(',')}}`],
    }));
    const changed = joinFragments([after, ...during], ' or ');
    return { sql: `select (${changed.sql}) as "changed", ${CURRENT_SNAPSHOT_SQL} as "snapshot"`, bindings: changed.bindings, label };
  };
}
