import type { Knex } from 'knex';
import type { ChangesProbe } from '../../engine/compile/changes-probe.ts';
import { parseSnapshot, type Snapshot } from '../../engine/compile/snapshot-text.ts';
import { queryRows } from '../query/query-rows.ts';
import { walPosition } from '../connection/wal-position.ts';

/** What one probe of a family learned, on the primary. */
export interface ProbeResult {
  /** The newest version of a change per brand asked about (null: none at all). */
  readonly versions: ReadonlyMap<string, bigint | null>;
  /** Per brand, the TRUNCATEs at or above `since` (changes-probe.ts). */
  readonly truncations: ReadonlyMap<string, readonly bigint[]>;
  /** The `since` asked about: older truncations are not listed. */
  readonly since: bigint;
  /** Per brand, those of the running ids asked about that had committed, having written something of the brand, when it ran. */
  readonly stamped: ReadonlyMap<string, ReadonlySet<bigint>>;
  /** The probe's own snapshot: which transactions had finished when it ran. */
  readonly snapshot: Snapshot;
  /** The primary's WAL position after the probe, when reads go to replicas: a copy that far has every change the probe saw. */
  readonly mark: string | null;
  /** When the probe ran (milliseconds since the epoch). */
  readonly at: number;
}

/**
 * Runs a family's probe (engine/compile/changes-probe.ts) for `brandIds` on
 * `db`, the primary: one statement on a pooled connection, returned at once,
 * so it needs no session and goes through a transaction-mode pooler as it
 * is. With replicas, the WAL position is taken after it: every commit the
 * probe saw is at or below it.
 */
export async function probeChanges({ db, probe, brandIds, since, running, withMark }: {
  db: Knex;
  probe: ChangesProbe;
  brandIds: readonly string[];
  /** The oldest token's xmin among the waiters: older truncations concern none of them. */
  since: bigint;
  /** Per brand, ids its waiters' tokens saw in progress, whose stamps to look for (none when absent). */
  running?: ReadonlyMap<string, readonly bigint[]>;
  withMark: boolean;
}): Promise<ProbeResult> {
  const at = Date.now();
  const rows = await queryRows(db, probe.probe({ brandIds, since, running }));
  const mark = withMark ? await walPosition(db) : null;
  const versions = new Map(rows.map((row) => [row.brandId as string, row.version === null ? null : BigInt(row.version as string)]));
  const ids = (text: unknown): bigint[] => String(text ?? '').split(',').filter((id) => id !== '').map(BigInt);
  const truncations = new Map(rows.map((row) => [row.brandId as string, ids(row.truncations)]));
  const stamped = new Map(rows.map((row) => [row.brandId as string, new Set(ids(row.stamped))]));
  const snapshot = rows[0] === undefined ? null : parseSnapshot(rows[0].snapshot as string, Infinity);
  if (snapshot === null) throw new Error(`a changes probe answered no snapshot it could read (${String(rows[0]?.snapshot)})`);
  return { versions, truncations, since, stamped, snapshot, mark, at };
}
