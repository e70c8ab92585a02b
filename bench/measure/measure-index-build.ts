import type pg from 'pg';
import { dropIndexes, presentIndexes, runMigrationUp, tableIndexes } from './list-question-indexes.ts';
import { startPgbench, type LoggedTransaction } from './pgbench.ts';
import { numberProducts, touchProductScript } from './product-writes.ts';
import { waitUntilIdle } from './wait-idle.ts';

/** What a writer did over a stretch of time. */
export interface WriterWindow {
  readonly seconds: number;
  readonly commits: number;
  readonly commitsPerSecond: number;
  /** The longest time without a commit in the stretch, its edges included: a writer blocked by a lock shows here. */
  readonly longestGapMs: number;
  /** Mean latency of the transactions that ended in the stretch, from their scheduled start (pgbench with a rate; NaN when none did). */
  readonly meanLatencyMs: number;
  /** The highest latency of a transaction that ended in the stretch (NaN when none did). */
  readonly maxLatencyMs: number;
}

/** The migration's products indexes built on the loaded data while a writer commits. */
export interface IndexBuildResult {
  /** The indexes dropped and built again. */
  readonly indexes: readonly string[];
  /** Products in the table when they were built. */
  readonly products: number;
  /** Seconds the migration's `up` took (the missing indexes built concurrently, the others found valid). */
  readonly seconds: number;
  /** The writer's target rate, in commits per second. */
  readonly writerRate: number;
  /** The writer before the build and during it. */
  readonly before: WriterWindow;
  readonly during: WriterWindow;
  /** Whether the writer committed all through the build: never `BLOCKED_GAP_MS` without a commit, the build's edges included. */
  readonly keptCommitting: boolean;
}

/** The writer: the rate of the bench's write load on other brands, steady, commits flushed as by default, over every product. */
export const BUILD_WRITER_RATE = 200;
const BUILD_WRITER_CLIENTS = 2;
/** Longer than this without a commit while the writer keeps its rate: it was held up. */
export const BLOCKED_GAP_MS = 1000;
const IDS_TABLE = 'bench_build_writer_ids';
/** Left out of the stretch before the build: the writer's sessions connecting. */
const SETTLE_MS = 500;
/** How long the writer may go on after the build for its log to cover it (a few seconds at its rate). */
const LOG_WAIT_MS = 60_000;

/** The writer's transactions that ended in `[fromMs, toMs]`, as a stretch. */
export function writerWindow(logged: readonly LoggedTransaction[], fromMs: number, toMs: number): WriterWindow {
  const inside = logged.filter((t) => t.endedAtMs >= fromMs && t.endedAtMs <= toMs);
  const times = [fromMs, ...inside.map((t) => t.endedAtMs), toMs];
  let longestGapMs = 0;
  for (let i = 1; i < times.length; i++) longestGapMs = Math.max(longestGapMs, times[i]! - times[i - 1]!);
  const seconds = Math.max(0, toMs - fromMs) / 1000;
  return {
    seconds,
    commits: inside.length,
    commitsPerSecond: seconds > 0 ? inside.length / seconds : Number.NaN,
    longestGapMs,
    meanLatencyMs: inside.length === 0 ? Number.NaN : inside.reduce((total, t) => total + t.latencyMs, 0) / inside.length,
    maxLatencyMs: inside.length === 0 ? Number.NaN : Math.max(...inside.map((t) => t.latencyMs)),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Drops the migration's products indexes, starts a writer (pgbench at a
 * steady `BUILD_WRITER_RATE` single-row updates a second over every
 * product, each transaction logged), lets it commit for `beforeSeconds`,
 * then runs the migration's `up` as a deployment would, timing it, and
 * compares the writer's commits during the build with those before. The
 * indexes are built again (by `up`) and the numbering table dropped at the
 * end, whatever happens.
 */
export async function measureIndexBuild({ url, client, beforeSeconds }: { url: string; client: pg.Client; beforeSeconds: number }): Promise<IndexBuildResult> {
  const indexes = await tableIndexes('products');
  try {
    const ids = await numberProducts({ client, table: IDS_TABLE, select: { sql: 'select id from products', values: [] } });
    await dropIndexes({ client, indexes });
    await waitUntilIdle({ client });
    const writer = await startPgbench({
      url, script: touchProductScript(IDS_TABLE), clients: BUILD_WRITER_CLIENTS, rate: BUILD_WRITER_RATE, variables: { ids }, logTransactions: true,
    });
    const writerStartedMs = Date.now();
    let built: { startedMs: number; endedMs: number; seconds: number };
    let logged: LoggedTransaction[];
    try {
      await sleep(beforeSeconds * 1000);
      const startedMs = Date.now();
      const seconds = await runMigrationUp(url);
      built = { startedMs, endedMs: Date.now(), seconds };
      // The writer goes on until its log on disk covers the build (pgbench writes it out a block at a time).
      const deadline = Date.now() + LOG_WAIT_MS;
      while ((await writer.loggedUntil()) <= built.endedMs) {
        if (Date.now() > deadline) throw new Error(`pgbench's transaction log did not reach the end of the build within ${LOG_WAIT_MS / 1000} s`);
        await sleep(250);
      }
    } finally {
      ({ logged } = await writer.stop());
    }
    const before = writerWindow(logged, writerStartedMs + SETTLE_MS, built.startedMs);
    const during = writerWindow(logged, built.startedMs, built.endedMs);
    const missing = indexes.length - (await presentIndexes({ client, indexes })).length;
    if (missing > 0) throw new Error(`the migration's up left ${missing} of the products indexes unbuilt`);
    return {
      indexes: indexes.map((index) => index.name),
      products: ids,
      seconds: built.seconds,
      writerRate: BUILD_WRITER_RATE,
      before,
      during,
      keptCommitting: during.longestGapMs < BLOCKED_GAP_MS,
    };
  } finally {
    if ((await presentIndexes({ client, indexes })).length < indexes.length) await runMigrationUp(url);
    await client.query(`drop table if exists ${IDS_TABLE}`);
  }
}
