import type pg from 'pg';
import type { BrandRef } from './cases.ts';
import { runLoad, type LoadTarget } from './measure.ts';
import { waitUntilIdle } from './wait-idle.ts';

/**
 * Whether the server's counts answers under a write load were fresh counts
 * (CONTRACT.md §8): the server remembers a count, and before reusing it asks
 * whether any row of the brand was written since (one probe of the products
 * table's `(brand_id, sync_xid, id)` index, changed-since.ts), or whether
 * any was written since a running count began; requests arriving together
 * share one such probe (exact-counts.ts). A probe that finds a write starts
 * a count (or the one waiting to start, which the requests after it join
 * without a probe); one that finds none gives the remembered or the running
 * count back. So each answer is a fresh count when every probe leads to a
 * count: counts run ≈ probes.
 *
 * Read from Postgres's statistics over a run of the server alone, outside
 * the measured ones: counts are the rows the products table's scans read
 * (its indexes' `idx_tup_read`, its sequential scans' `seq_tup_read`) over
 * the brand's products (what one count reads); probes are the scans of the
 * sync index. A session reports its statistics about once a second, and an
 * idle one within `STATS_FLUSH_MS`, so the run is read after that long, on
 * both sides. Approximate (the writes and the probes read a few rows too),
 * but it tells a run that counts from one that reuses.
 */
export interface FreshCounts {
  readonly connections: number;
  readonly seconds: number;
  readonly answers: number;
  /** Full counts of the brand the server ran (rows read over the brand's products). */
  readonly countsRun: number;
  /** Probes that asked whether the brand was written since a remembered or running count (scans of the sync index). */
  readonly checks: number;
  /** The share of those probes that led to a count: `countsRun / checks` (1: every answer a fresh count; 1 too when counts ran with no check). */
  readonly freshShare: number;
}

/** An idle session reports its pending statistics within 10 s (PostgreSQL 15, `PGSTAT_IDLE_INTERVAL`); a little more. */
export const STATS_FLUSH_MS = 11_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the products table's scans have done: rows read, and scans of its sync index (the changed-since probes). */
export interface ScanStats {
  readonly rows: number;
  readonly checks: number;
}

/** What the products table's scans have done, as the statistics say now. */
export async function productsScanStats(monitor: pg.Client): Promise<ScanStats> {
  await monitor.query('select pg_stat_clear_snapshot()');
  const found = await monitor.query(
    `select coalesce((select sum(idx_tup_read) from pg_stat_user_indexes where relid = 'products'::regclass), 0)
          + coalesce((select seq_tup_read from pg_stat_user_tables where relid = 'products'::regclass), 0) as "rows",
            coalesce((select sum(s.idx_scan) from pg_stat_user_indexes s join pg_indexes i on i.indexname = s.indexrelname and i.schemaname = s.schemaname
                       where s.relid = 'products'::regclass and i.indexdef like '%(brand_id, sync_xid%'), 0) as "checks"`,
  );
  const row = found.rows[0] as { rows: string; checks: string };
  return { rows: Number(row.rows), checks: Number(row.checks) };
}

/**
 * Loads the server with the counts case for `seconds` at `connections`, and
 * reads from Postgres's statistics how many counts of the brand it ran, and
 * how many times it asked whether it could reuse one.
 */
export async function measureFreshCounts({ monitor, target, brand, connections, seconds, ignore }: {
  monitor: pg.Client;
  target: LoadTarget;
  brand: BrandRef;
  connections: number;
  seconds: number;
  /** Sessions a quiet database may still have running (the write load). */
  ignore: readonly string[];
}): Promise<FreshCounts> {
  const counted = await monitor.query('select count(*)::int as "n" from products where brand_id = $1', [brand.id]);
  const brandRows = (counted.rows[0] as { n: number }).n;
  await waitUntilIdle({ client: monitor, ignore });
  await sleep(STATS_FLUSH_MS);
  const before = await productsScanStats(monitor);
  const sample = await runLoad({ target, connections, seconds });
  await waitUntilIdle({ client: monitor, ignore });
  await sleep(STATS_FLUSH_MS);
  const after = await productsScanStats(monitor);
  return freshCountsOf({ before, after, brandRows, connections, seconds: sample.seconds, answers: sample.requests });
}

/** The counts and checks between two readings of the statistics, over a run that answered `answers`. */
export function freshCountsOf({ before, after, brandRows, connections, seconds, answers }: {
  before: ScanStats;
  after: ScanStats;
  /** The brand's products: the rows one count reads. */
  brandRows: number;
  connections: number;
  seconds: number;
  answers: number;
}): FreshCounts {
  const countsRun = (after.rows - before.rows) / Math.max(1, brandRows);
  const checks = after.checks - before.checks;
  // No check with counts run: there was never a remembered count to check (each was stale before it could be
  // reused), so every answer was a fresh count.
  const freshShare = checks > 0 ? Math.min(1, countsRun / checks) : countsRun > 0 ? 1 : Number.NaN;
  return { connections, seconds, answers, countsRun, checks, freshShare };
}
