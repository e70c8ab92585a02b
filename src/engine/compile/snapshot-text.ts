/**
 * What a changes batch's snapshot saw, as Postgres writes a `pg_snapshot`:
 * `xmin:xmax:xip,...`. Every transaction below `xmin` had finished; none at
 * or above `xmax` had; those in between had, but for the ids listed (`xip`,
 * in progress then). A change the snapshot did not see was written by a
 * transaction at or above `xmax` or in `xip`: `not pg_visible_in_snapshot`.
 *
 * Why a token carries the whole snapshot and not only its `xmin`: a
 * transaction left open anywhere on the server (a session idle in
 * transaction, a long report) holds every snapshot's `xmin` back. A batch
 * after a token of `xmin` alone would then return every change since that
 * transaction began, again and again: a follower that waits for an empty
 * batch (CONTRACT.md §7) would never wait, and would read the same records
 * in a loop. With the snapshot, a batch returns exactly what the last one did
 * not see, whatever runs beside it.
 *
 * A snapshot with many transactions in progress would make a long token:
 * past `MAX_IN_PROGRESS` the token keeps `xmin:xmin:` (every change from
 * `xmin` on counts as unseen), which is what a token of `xmin` alone meant:
 * never a change missed, at worst some sent again (at least once, §6).
 */

/**
 * The statement's snapshot as text. On a standby `pg_current_snapshot()`
 * lists no transaction in progress (recovery keeps them where it does not
 * look), so its text would claim to have seen what was still running on the
 * primary: there only its `xmin` is true, and the text is `xmin:xmin:`.
 */
export const CURRENT_SNAPSHOT_SQL = 'case when pg_is_in_recovery()'
  + " then pg_snapshot_xmin(pg_current_snapshot())::text || ':' || pg_snapshot_xmin(pg_current_snapshot())::text || ':'"
  + ' else pg_current_snapshot()::text end';

export interface Snapshot {
  readonly xmin: bigint;
  readonly xmax: bigint;
  /** In progress when it was taken, ascending, each in [xmin, xmax). */
  readonly xip: readonly bigint[];
}

/** The most in-progress ids a token carries (see above). */
export const MAX_IN_PROGRESS = 16;

const ID = '(0|[1-9][0-9]{0,19})';
const TEXT = new RegExp(`^${ID}:${ID}:(${ID}(,${ID})*)?$`);


/** The snapshot of a well-formed text (as Postgres writes one, with at most `limit` ids in progress), or null. */
export function parseSnapshot(text: string, limit = MAX_IN_PROGRESS): Snapshot | null {
  if (!TEXT.test(text)) return null;
  const [xmin, xmax, list] = text.split(':') as [string, string, string];
  const snapshot = { xmin: BigInt(xmin), xmax: BigInt(xmax), xip: list === '' ? [] : list.split(',').map(BigInt) };
  if (snapshot.xmin > snapshot.xmax || snapshot.xip.length > limit) return null;
  const ordered = snapshot.xip.every((id, i) => id >= snapshot.xmin && id < snapshot.xmax && (i === 0 || id > snapshot.xip[i - 1]!));
  return ordered ? snapshot : null;
}

export function snapshotText({ xmin, xmax, xip }: Snapshot): string {
  return `${xmin}:${xmax}:${xip.join(',')}`;
}

/** What a token of `xmin` alone means: every change from `xmin` on is unseen. */
export function fromXmin(xmin: string | bigint): string {
  return `${xmin}:${xmin}:`;
}

/** The `xmin` of a snapshot's text (which must be well formed). */
export function xminOf(text: string): string {
  return text.slice(0, text.indexOf(':'));
}

/** A snapshot's text as Postgres gave it, or `xmin:xmin:` past MAX_IN_PROGRESS ids in progress. */
export function boundedSnapshot(text: string): string {
  return parseSnapshot(text) === null ? fromXmin(xminOf(text)) : text;
}

/** Whether the transaction `xid` had finished (committed or not) when `snapshot` was taken. */
export function finishedIn(snapshot: Snapshot, xid: bigint): boolean {
  return xid < snapshot.xmin || (xid < snapshot.xmax && !snapshot.xip.includes(xid));
}

/**
 * Whether `later` saw everything `earlier` did: both its bounds at least as
 * high. (Two snapshots of one server are ordered so; the test keeps a token
 * from going back when the probe that made it ran before the batch it follows.)
 */
export function seesAtLeast(later: Snapshot, earlier: Snapshot): boolean {
  return later.xmin >= earlier.xmin && later.xmax >= earlier.xmax;
}
