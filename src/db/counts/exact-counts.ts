import { createCountBatcher } from './count-batcher.ts';

/**
 * `totalItems` for first pages: exact as of each request, counted as rarely
 * as that allows.
 *
 * - Identical counts arriving together share one run that starts after each
 *   of them arrived (`CountBatcher`).
 * - A run first asks whether anything changed since the last count of the
 *   same key: the count says which snapshot it saw (`pg_current_snapshot()`:
 *   the transactions visible to it), and a run that finds the very same
 *   snapshot now sees the very same rows, so it gives that total back without
 *   counting. Any write that commits in between changes the snapshot and the
 *   next run counts again. So a big brand read while nothing is written costs
 *   one cheap query per batch instead of a count of every matching row.
 */

/** A count and the snapshot it saw (null: unknown, never reused). */
export interface Counted {
  readonly total: number;
  readonly snapshot: string | null;
}

export interface CountSource {
  count(): Promise<Counted>;
  /** The snapshot a statement starting now sees. */
  snapshot(): Promise<string>;
}

export interface ExactCounts {
  count(key: string, source: CountSource): Promise<number>;
}

/** Keys remembered at most (the oldest goes first): a key is a family, a brand and its filters. */
export const MAX_REMEMBERED_COUNTS = 10_000;

export function createExactCounts(): ExactCounts {
  const batcher = createCountBatcher();
  const remembered = new Map<string, Counted>();

  const remember = (key: string, counted: Counted): void => {
    remembered.delete(key);
    if (remembered.size >= MAX_REMEMBERED_COUNTS) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, counted);
  };

  return {
    count(key, source) {
      return batcher.count(key, async () => {
        const known = remembered.get(key);
        if (known && known.snapshot !== null && (await source.snapshot()) === known.snapshot) return known.total;
        const counted = await source.count();
        if (counted.snapshot === null) remembered.delete(key);
        else remember(key, counted);
        return counted.total;
      });
    },
  };
}
