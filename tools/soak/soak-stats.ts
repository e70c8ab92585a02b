import { percentileOfSorted } from '../shared/percentile.ts';

/** Latency and status arithmetic of the soak: pure functions over plain numbers. */

/** Latency percentiles in milliseconds (null for an empty sample). */
export interface Percentiles {
  readonly count: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

export function percentiles(values: readonly number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const list = Array.from(sorted);
  return Object.freeze({
    count: list.length,
    p50: percentileOfSorted(list, 50),
    p95: percentileOfSorted(list, 95),
    p99: percentileOfSorted(list, 99),
    max: list.length === 0 ? null : list[list.length - 1]!,
  });
}

/** The median (the mean of the two middle values for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Array.from(Float64Array.from(values).sort());
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Adds one answer to a count by status (`"200"`, `"304"`, …). */
export function countStatus(counts: Record<string, number>, status: number | string): void {
  const key = String(status);
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Answers of 500 or more in a count by status. */
export function serverErrors(counts: Readonly<Record<string, number>>): number {
  return Object.entries(counts).reduce((sum, [status, n]) => (Number(status) >= 500 ? sum + n : sum), 0);
}
