import { createCountBatcher } from './count-batcher.ts';

/**
 * `totalItems` for first pages: exact as of each request, counted as rarely
 * as that allows.
 *
 * - Identical counts arriving together share a run that starts after each
 *   of them arrived (`CountBatcher`).
 * - A run first asks whether any row the count may read changed since the
 *   last count of the same key: the count says the snapshot it ran in, and
 *   one index probe per table tells whether anything of the brand was
 *   written since by a transaction that snapshot did not see
 *   (compile/changed-since.ts).
 *   Nothing: the total is given back without counting. So writes to other
 *   brands, or other families, never make a big brand count again; a write
 *   to its own rows does, and the total stays exact.
 * - The probe sees every write the changes feed sees: a `TRUNCATE` (its
 *   truncation record) and a session with `session_replication_role =
 *   replica` (the triggers fire there too) included. Whatever still escapes
 *   it (a trigger disabled by hand, a table swapped under the service) is
 *   seen within `maxAgeMs`: a remembered count older than that is counted again.
 */

/**
 * A count and the snapshot it ran in, as text (null: unknown, never
 * reused). The total is a number for a list's `totalItems`, or any value a
 * count by value gives (its rows: read-counts.ts), remembered alike.
 */
export interface Counted<T = number> {
  readonly total: T;
  readonly snapshot: string | null;
}

export interface CountSource<T = number> {
  count(): Promise<Counted<T>>;
  /** Whether any row the count may read was written by a transaction `snapshot` did not see, as a statement starting now sees. */
  changedSince(snapshot: string): Promise<boolean>;
}

export interface ExactCounts {
  /** The count of `key`: remembered while nothing it may read has changed. A key always comes with the same kind of count. */
  count<T = number>(key: string, source: CountSource<T>): Promise<T>;
}

/** Keys remembered at most (the oldest goes first): a key is a family, a brand and its filters. */
export const MAX_REMEMBERED_COUNTS = 10_000;
/** A remembered count is counted again after this long, whatever the probe says. */
export const MAX_COUNT_AGE_MS = 60_000;

export function createExactCounts({ now = Date.now, maxAgeMs = MAX_COUNT_AGE_MS }: { now?: () => number; maxAgeMs?: number } = {}): ExactCounts {
  const batcher = createCountBatcher();
  const remembered = new Map<string, Counted<unknown> & { readonly at: number }>();

  const remember = (key: string, counted: Counted<unknown> & { readonly at: number }): void => {
    remembered.delete(key);
    if (remembered.size >= MAX_REMEMBERED_COUNTS) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, counted);
  };

  return {
    count<T>(key: string, source: CountSource<T>): Promise<T> {
      return batcher.count(key, async () => {
        const known = remembered.get(key);
        if (known && known.snapshot !== null && now() - known.at < maxAgeMs && !(await source.changedSince(known.snapshot))) return known.total as T;
        const at = now();
        const counted = await source.count();
        if (counted.snapshot === null) remembered.delete(key);
        else remember(key, { ...counted, at });
        return counted.total;
      });
    },
  };
}
