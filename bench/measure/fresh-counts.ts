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
 * count back. An answer is a fresh count when its count ran during the
 * request: one started for it, or one running that nothing written since it
 * began makes exact for it too; not when it is the remembered count.
 *
 * The server says where each answer's count came from
 * (`bcat_count_answers_total` at `/metrics`), read before and after a run of
 * the server alone, outside the measured ones. Beside it, from Postgres's
 * statistics: counts are the rows the products table's scans read (its
 * indexes' `idx_tup_read`, its sequential scans' `seq_tup_read`) over the
 * brand's products (what one count reads); probes are the scans of the sync
 * index. A session reports its statistics about once a second, and an idle
 * one within `STATS_FLUSH_MS`, so the run is read after that long, on both
 * sides. Approximate (the writes and the probes read a few rows too).
 */
export interface FreshCounts {
  readonly connections: number;
  readonly seconds: number;
  readonly answers: number;
  /** Full counts of the brand the server ran (rows read over the brand's products). */
  readonly countsRun: number;
  /** Probes that asked whether the brand was written since a remembered or running count (scans of the sync index). */
  readonly checks: number;
  /** The server's answers by where their count came from, as its metrics say; null where it said nothing. */
  readonly sources: AnswerSources | null;
  /**
   * The share of answers whose count ran during the request (`running` and
   * `counted` over all, from `sources`); without them, `countsRun / checks`
   * (1 too when counts ran with no check).
   */
  readonly freshShare: number;
}

/** Answers by where their count came from (src/db/counts/exact-counts.ts, `CountAnswerSource`). */
export interface AnswerSources {
  readonly remembered: number;
  readonly running: number;
  readonly counted: number;
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
  const before = { ...await productsScanStats(monitor), sources: await answerSources(target.origin) };
  const sample = await runLoad({ target, connections, seconds });
  await waitUntilIdle({ client: monitor, ignore });
  await sleep(STATS_FLUSH_MS);
  const after = { ...await productsScanStats(monitor), sources: await answerSources(target.origin) };
  return freshCountsOf({ before, after, brandRows, connections, seconds: sample.seconds, answers: sample.requests });
}

/** What the server's `/metrics` says of where its counts came from so far, or null when it says nothing of them. */
export async function answerSources(origin: string): Promise<AnswerSources | null> {
  return answerSourcesOf(await (await fetch(`${origin}/metrics`)).text());
}

/** `bcat_count_answers_total` by `from`, out of the metrics' text. */
export function answerSourcesOf(text: string): AnswerSources | null {
  const found: Record<string, number> = {};
  for (const [, from, value] of text.matchAll(/^bcat_count_answers_total\{from="(\w+)"\} ([0-9.e+]+)$/gm)) found[from!] = Number(value);
  if (!('remembered' in found) || !('running' in found) || !('counted' in found)) return null;
  return { remembered: found.remembered!, running: found.running!, counted: found.counted! };
}

/** The counts and checks between two readings of the statistics and the server's metrics, over a run that answered `answers`. */
export function freshCountsOf({ before, after, brandRows, connections, seconds, answers }: {
  before: ScanStats & { sources?: AnswerSources | null };
  after: ScanStats & { sources?: AnswerSources | null };
  /** The brand's products: the rows one count reads. */
  brandRows: number;
  connections: number;
  seconds: number;
  answers: number;
}): FreshCounts {
  const countsRun = (after.rows - before.rows) / Math.max(1, brandRows);
  const checks = after.checks - before.checks;
  const sources = before.sources && after.sources ? {
    remembered: after.sources.remembered - before.sources.remembered,
    running: after.sources.running - before.sources.running,
    counted: after.sources.counted - before.sources.counted,
  } : null;
  if (sources) {
    const all = sources.remembered + sources.running + sources.counted;
    return { connections, seconds, answers, countsRun, checks, sources, freshShare: all > 0 ? (sources.running + sources.counted) / all : Number.NaN };
  }
  // No check with counts run: there was never a remembered count to check (each was stale before it could be
  // reused), so every answer was a fresh count.
  const freshShare = checks > 0 ? Math.min(1, countsRun / checks) : countsRun > 0 ? 1 : Number.NaN;
  return { connections, seconds, answers, countsRun, checks, sources, freshShare };
}
