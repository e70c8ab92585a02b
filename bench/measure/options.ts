import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CASE_NAMES, type CaseName } from './cases.ts';
import type { CompressionCaseName } from './compression-cases.ts';
import { selectCases, type SelectedCases } from './select-cases.ts';
import { FEED_CASE_NAMES, type FeedCaseName } from './feed-cases.ts';
import { LOADED_CONNECTIONS, type WriteLoadName } from './write-loads.ts';
import { DEFAULT_SCALE, scaleName, scaleProblem, type Scale } from '../data/scale.ts';
import { SMOKE_CAP, type LoadCap } from './measure.ts';
import { REPO_ROOT } from './service-process.ts';

/** What one benchmark run does. */
export interface BenchOptions {
  readonly scale: Scale;
  /** Seconds of load per case and server. */
  readonly durationSeconds: number;
  /** Seconds of load before each measured run, not measured. */
  readonly warmupSeconds: number;
  readonly connections: number;
  /** A smoke run's cap on every load run (measure.ts, `LoadCap`); null or absent: a benchmark, as fast as answered. */
  readonly smoke?: LoadCap | null;
  /** The cases measured against the floor. */
  readonly cases: readonly CaseName[];
  /** The changes feed's cases, measured on the server alone after the floor's. */
  readonly feed: readonly FeedCaseName[];
  /** Write loads under which some of the floor's cases are measured again, at several connection counts. */
  readonly writeLoads: readonly WriteLoadName[];
  /** Response compression's case (on the server alone): bytes and CPU per request without compression, in gzip and in Brotli. */
  readonly compression: readonly CompressionCaseName[];
  /** The connection counts of the runs under a write load. */
  readonly loadConnections: readonly number[];
  /** Reuse a loaded database of the same scale, and keep it at the end. */
  readonly keepData: boolean;
  /** Admin connection the bench creates (and drops) its database from. */
  readonly adminUrl: string;
  /** Redis for the server's rate limits; null: in-process counters. */
  readonly redisUrl: string | null;
  /**
   * Whether a load's counts case is followed by the check of how fresh the
   * server's counts were (fresh-counts.ts: a run of its own, read from
   * Postgres's statistics after they settle, about 25 s). Unset: checked.
   */
  readonly checkFreshCounts?: boolean;
}

/** The command's options: a run's, and where its results go (null: `bench/results/<scale>-<date>.md`). */
export interface CommandOptions extends BenchOptions {
  readonly out: string | null;
}

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const USAGE = `usage: npm run bench -- [--products N] [--brands N] [--big-brand N] [--duration S] [--warmup S]
                        [--connections N] [--smoke] [--cases a,b] [--load-connections a,b] [--keep-data] [--out file.md]

  --products N     products in all (default ${DEFAULT_SCALE.products})
  --brands N       brands, the big one included (default ${DEFAULT_SCALE.brands})
  --big-brand N    products of the largest brand (default: a fifth of --products)
  --duration S     seconds of load per case and server (default 10)
  --warmup S       seconds of load before each measured run (default: a fifth of --duration, 1 to 3)
  --connections N  concurrent connections of the load generator (default 32)
  --smoke          each load run ends after ${SMOKE_CAP.requests} requests: checks in minutes that every case works
                   (small --products), without loading the machine; its rates mean nothing
  --cases a,b      run only these cases (default: all). Against the floors, in table order:
                     ${CASE_NAMES.join(', ')}
                   (newest-page-2000, and first-page-big to counts-status: the list questions, CONTRACT.md §8).
                   The cases that write, last: ${FEED_CASE_NAMES.join(', ')}
                   (writer-index-cost and index-build drop the list questions' products indexes and build them
                   again with the migration's up). writes-other-brands and writes-own-brand run get-by-id,
                   first-page-small and first-page-big-filter again under a write load (writes-own-brand
                   counts-status too), writes-big-brand runs counts-status under writes frequent enough that
                   no remembered count is reused, all at --load-connections. compression measures a list page
                   of 100 and a get in identity, gzip and Brotli (bytes, CPU per request)
  --load-connections a,b  connection counts of the runs under a write load (default ${LOADED_CONNECTIONS.join(',')})
  --keep-data      reuse the database loaded at this scale by an earlier --keep-data run, and keep it
  --out file.md    write the table there, and its data beside it as .json

  BENCH_DATABASE_URL  admin connection the bench creates bcat_bench_<scale> from (default ${DEFAULT_ADMIN_URL})
  REDIS_URL           Redis for the server's rate limits (default ${DEFAULT_REDIS_URL}; empty: in-process)`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A `--name` value that must be a whole number above 0, or `fallback` when not given. */
export function wholeNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} must be a whole number above 0, not '${text}'`);
  return Number(text);
}

/** The scale `--products`, `--brands` and `--big-brand` ask for (the big brand a fifth of the products unless given). */
export function scaleOfArgs(values: { products?: string | undefined; brands?: string | undefined; 'big-brand'?: string | undefined }): Scale {
  const products = wholeNumber('products', values.products, DEFAULT_SCALE.products);
  const scale: Scale = {
    products,
    brands: wholeNumber('brands', values.brands, DEFAULT_SCALE.brands),
    bigBrand: wholeNumber('big-brand', values['big-brand'], Math.round(products / 5)),
  };
  const problem = scaleProblem(scale);
  if (problem) throw new UsageError(problem);
  return scale;
}

/** The options of `npm run bench -- <args>`, with the environment's settings. */
export function parseBenchArgs({ args, env }: { args: readonly string[]; env: NodeJS.ProcessEnv }): CommandOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        products: { type: 'string' },
        brands: { type: 'string' },
        'big-brand': { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        smoke: { type: 'boolean' },
        cases: { type: 'string' },
        'load-connections': { type: 'string' },
        'keep-data': { type: 'boolean' },
        out: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const scale = scaleOfArgs(values);
  const durationSeconds = wholeNumber('duration', values.duration, 10);
  let selected: SelectedCases;
  try {
    selected = selectCases(values.cases === undefined ? null : values.cases.split(',').map((name) => name.trim()).filter((name) => name !== ''));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { cases, feed, writeLoads, compression } = selected;
  if (cases.length + feed.length + writeLoads.length + compression.length === 0) throw new UsageError('--cases names no case');
  return {
    scale,
    durationSeconds,
    warmupSeconds: values.warmup === '0' ? 0 : wholeNumber('warmup', values.warmup, Math.min(3, Math.max(1, Math.round(durationSeconds / 5)))),
    connections: wholeNumber('connections', values.connections, 32),
    smoke: values.smoke ? SMOKE_CAP : null,
    cases,
    feed,
    writeLoads,
    compression,
    loadConnections: values['load-connections'] === undefined
      ? [...LOADED_CONNECTIONS]
      : values['load-connections'].split(',').map((text) => wholeNumber('load-connections', text.trim(), 0)),
    keepData: values['keep-data'] ?? false,
    adminUrl: env.BENCH_DATABASE_URL || DEFAULT_ADMIN_URL,
    redisUrl: env.REDIS_URL === undefined ? DEFAULT_REDIS_URL : env.REDIS_URL || null,
    out: values.out ?? null,
  };
}

/** `bench/results/<scale>-<UTC date and minute>.md`. */
export function defaultOutPath({ scale, date }: { scale: Scale; date: Date }): string {
  const stamp = date.toISOString().slice(0, 16).replace(':', '-');
  return join(REPO_ROOT, 'bench', 'results', `${scaleName(scale)}-${stamp}.md`);
}

/** The JSON file beside a Markdown result. */
export function jsonPathOf(markdownPath: string): string {
  return markdownPath.endsWith('.md') ? `${markdownPath.slice(0, -3)}.json` : `${markdownPath}.json`;
}
