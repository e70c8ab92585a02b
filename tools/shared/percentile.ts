/**
 * The nearest-rank percentile (`p` from 0 to 100) of values already sorted
 * ascending: the smallest value with at least p% of the sample at or below it.
 * Null when there are none. The benchmark and the soak report with it.
 */
export function percentileOfSorted(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, not ${p}`);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}
