import type { CaseResult } from '../measure/case-result.ts';
import type { FeedResults } from '../measure/measure-feed.ts';
import type { CompressionRow } from '../measure/measure-compression.ts';
import type { LoadedRun } from '../measure/measure-loaded.ts';
import type { Scale } from '../data/scale.ts';
import type { LoadCap } from '../measure/measure.ts';

/** What a bench run reports: its context, each case with its ratios, and the targets checked. */

/** How, where and on what the run was made. */
export interface RunContext {
  readonly scale: Scale;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** A smoke run's cap on each load run, or null: a benchmark, as fast as answered. */
  readonly smoke: LoadCap | null;
  /** Postgres connections of each server. */
  readonly poolMax: number;
  readonly load: {
    readonly seconds: number;
    /** Postgres CPU seconds of the load, or null where unknown. */
    readonly cpuSeconds: number | null;
    readonly reused: boolean;
    readonly rows: Readonly<Record<string, number>>;
  };
  readonly machine: {
    readonly cpus: number;
    /** The 1, 5 and 15 minute load averages when the run started and when it ended: other work on the machine shows here. */
    readonly loadAverage: { readonly before: readonly number[]; readonly after: readonly number[] };
    readonly node: string;
    readonly postgres: string;
  };
  /** RSS of each process once started, before any load. */
  readonly idleRssBytes: { readonly server: number | null; readonly floor: number | null };
}

/** A target the issue set, as measured in this run; null where its cases were not run. */
export interface TargetCheck {
  readonly label: string;
  readonly value: number | null;
  readonly goal: string;
  readonly met: boolean | null;
}

/** A case's ratios: server req/s over each floor's, and server CPU per request over the prepared floor's. */
export interface CaseRatios {
  readonly requestsRatio: number;
  readonly preparedRatio: number;
  readonly cpuRatio: number;
}

export interface BenchReport extends RunContext {
  readonly cases: readonly (CaseResult & CaseRatios)[];
  /** p50 of the deep page over p50 of page 2, on each server. */
  readonly deepPaging: { readonly server: number | null; readonly floor: number | null };
  /** Peak RSS over all cases, on each server, and the server's over the floor's. */
  readonly rss: { readonly server: number | null; readonly floor: number | null; readonly ratio: number | null };
  /** The changes feed's cases (measured on the server alone). */
  readonly feed: FeedResults;
  /** Cases measured again under each write load. */
  readonly loaded: readonly LoadedRun[];
  /** Response compression's requests in each coding (measured on the server alone); empty when not run. */
  readonly compression: readonly CompressionRow[];
  readonly targets: readonly TargetCheck[];
}
