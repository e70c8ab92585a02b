import { quoteIdentifier } from '../definition/naming.ts';
import type { Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { SYNC_COLUMN, TOMBSTONE_TABLE, TRUNCATION_TABLE } from './plan-sync.ts';
import { recordJoins } from './query-parts.ts';
import type { SqlFragment } from './sql-fragment.ts';
import { CURRENT_SNAPSHOT_SQL } from './snapshot-text.ts';

/**
 * The live changes' question (CONTRACT.md §7), compiled once per family at
 * boot: for each brand asked about, the newest version a change to this
 * family could carry, and the probe's own snapshot. A waiting request whose
 * token is the snapshot S has something to read exactly when a change S did
 * not see committed (changes-queries.ts): one of version `xmax(S)` or newer
 * (the brand's newest version is at least `xmax(S)`), or one of a
 * transaction in progress in S that has committed since. For those, the
 * waiters' tokens' ids in progress are asked about per brand (`running`):
 * the probe answers which of them finished and stamped a row of the brand,
 * a tombstone or a truncation of it (`stamped`). One that finished having
 * written nothing of the brand, or rolled back, wakes nobody: transaction
 * ids are the cluster's, and on a server written all day nearly every token
 * lists some, mostly other brands' (without this, each such commit would
 * wake the waiter for a read that finds nothing, and a follower would poll
 * at the pace of the writes).
 * So one statement per family answers for every brand and every waiting
 * request at once, whatever their number.
 *
 * Each source is asked for its newest `sync_xid` of the brand through the
 * `(brand_id, sync_xid, id)` index (one index probe per brand, read
 * backwards, not a scan): the family's table, each table a record's fields
 * are joined from, and the tombstones of the table. A joined table's newest
 * row of the brand may belong to no record of this family: the answer may
 * then say "changed" when the batch is empty (the waiter reads, finds
 * nothing and waits on), never "unchanged" when it is not.
 *
 * A TRUNCATE writes no newer version: it leaves a record of its own
 * (plan-sync.ts). So the probe also lists, per brand, the truncations of
 * those tables at or above `since` (the oldest token waited on): a waiter is
 * woken by one its token has not already seen, and its read answers 410.
 */
export interface ChangesProbe {
  /**
   * Rows `{ brandId, version, truncations, stamped, snapshot }`: `version`
   * null when the brand has no row nor tombstone; `truncations` the
   * comma-separated ids of those at or above `since` ('' for none);
   * `stamped` those of the brand's `running` ids (none when absent) that
   * had committed when the probe ran and wrote something of the brand the
   * version looks at, or truncated its tables ('' for none). `brandIds`
   * must be UUIDs.
   */
  probe(args: { brandIds: readonly string[]; since: bigint; running?: ReadonlyMap<string, readonly bigint[]> }): SqlFragment;
}

const XID = quoteIdentifier(SYNC_COLUMN);

/** How a table's rows belong to the brand `v.b`; a shared table's rows without a brand belong to every brand. */
function ownedBy(scope: Scope, alias: string): string[] {
  switch (scope) {
    case 'brand':
      return [`${alias}."brand_id" = v.b`];
    case 'shared':
      return [`${alias}."brand_id" = v.b`, `${alias}."brand_id" is null`];
    case 'tenant':
      return [`${alias}."id" = v.b`];
  }
}

/** The newest version of one source for the brand: one backward index probe per condition. */
function newest({ table, scope, extra = '' }: { table: string; scope: Scope; extra?: string }): string[] {
  return ownedBy(scope, 's').map((owned) => `(select s.${XID} from ${table} s where ${extra}${owned} order by s.${XID} desc limit 1)`);
}

/** Whether the source holds a row of the brand stamped by the transaction `i.x`: one index probe per condition. */
function stampedBy({ table, scope, extra = '' }: { table: string; scope: Scope; extra?: string }): string[] {
  return ownedBy(scope, 's').map((owned) => `exists (select 1 from ${table} s where ${extra}${owned} and s.${XID} = i.x)`);
}

export function compileChangesProbe(resource: Resource): ChangesProbe {
  const tombstoneScope: Scope = resource.scope === 'brand' ? 'brand' : 'shared';
  const joined = [...new Map(recordJoins(resource).map((join) => [join.table, join.scope])).entries()];
  const tombstones = { table: quoteIdentifier(TOMBSTONE_TABLE), scope: tombstoneScope, extra: 's."table_name" = ? and ' };
  const sources = [
    { table: quoteIdentifier(resource.table), scope: resource.scope },
    ...joined.map(([table, scope]) => ({ table: quoteIdentifier(table), scope })),
    tombstones,
  ];
  const terms = sources.flatMap(newest);
  const truncated = [...new Set([resource.table, ...joined.map(([table]) => table)])];
  // A TRUNCATE stamps no row: its record is the stamp (one that ends is news to every brand it reached).
  const truncationStamp = `exists (select 1 from ${quoteIdentifier(TRUNCATION_TABLE)} s where s."table_name" in (${truncated.map(() => '?').join(', ')})`
    + ` and (s."brand_id" = v.b or s."brand_id" is null) and s.${XID} = i.x)`;
  const stamps = [...sources.flatMap(stampedBy), truncationStamp];
  // The tombstones' terms name the family's table: one binding each, wherever they are.
  const tableNames = (parts: readonly string[]): string[] => parts.filter((part) => part.includes('"table_name" = ?')).map(() => resource.table);
  const truncations = `array_to_string(array(select distinct x.${XID}::text from ${quoteIdentifier(TRUNCATION_TABLE)} x`
    + ` where x."table_name" in (${truncated.map(() => '?').join(', ')}) and (x."brand_id" = v.b or x."brand_id" is null)`
    + ` and x.${XID} >= ?::xid8 order by 1), ',') as "truncations"`;
  // A running id's stamps are looked for once it has finished for this statement: until then none can be seen.
  const stamped = `array_to_string(array(select i.x::text from unnest(string_to_array(v.r, ';')::xid8[]) as i(x)`
    + ` where pg_visible_in_snapshot(i.x, pg_current_snapshot()) and (${stamps.join(' or ')}) order by 1), ',') as "stamped"`;
  const sql = `select v.b::text as "brandId", greatest(${terms.join(', ')})::text as "version", ${truncations}, ${stamped},`
    + ` ${CURRENT_SNAPSHOT_SQL} as "snapshot" from unnest(?::uuid[], ?::text[]) as v(b, r)`;
  return {
    // The brands, and each one's running ids (';' between them), go as two array literals: the statement's text,
    // and its prepared plan, are the same for any number of them.
    probe: ({ brandIds, since, running }) => ({
      sql,
      bindings: [
        ...tableNames(terms), ...truncated, since.toString(), ...tableNames(stamps), ...truncated,
        `{${brandIds.join(',')}}`, `{${brandIds.map((id) => `"${(running?.get(id) ?? []).join(';')}"`).join(',')}}`,
      ],
    }),
  };
}
