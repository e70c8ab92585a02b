import autocannon from 'autocannon';
import { percentileOfSorted } from '../../tools/shared/percentile.ts';
import { cpuSeconds, sampleResidentBytes } from './process-stats.ts';

/** One target's result for one case, over all its runs. Latencies in milliseconds. */
export interface Measurement {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** Over 2xx responses, as autocannon counts latency. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  /** Peak RSS of the target's process during the runs, or null where it cannot be read. */
  readonly peakRssBytes: number | null;
  /**
   * CPU time the target's process spent per response, in milliseconds: its
   * own cost, apart from Postgres, Redis and the load generator, and little
   * moved by other work on the machine. Null where it cannot be read.
   */
  readonly cpuMsPerRequest: number | null;
}

/** One load run: what `combine` adds up into a measurement. */
export interface RunSample {
  readonly requests: number;
  readonly seconds: number;
  /** Every 2xx response's latency, in milliseconds. */
  readonly latencies: readonly number[];
  readonly errors: number;
  readonly non2xx: number;
  readonly peakRssBytes: number | null;
  /** CPU seconds the target's process used during the run, or null where it cannot be read. */
  readonly cpuSeconds: number | null;
}

/** What the load generator hits: a process and the requests it gets. */
export interface LoadTarget {
  readonly origin: string;
  readonly pid: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Cycled through by every connection. */
  readonly paths: readonly string[];
}

/** The value at a percentile (0 to 100) of sorted numbers, by nearest rank; NaN when there are none. */
export function percentile(sorted: readonly number[], rank: number): number {
  return percentileOfSorted(sorted, rank) ?? Number.NaN;
}

/** The runs of one target as one measurement: rates over their total time, percentiles over all their latencies. */
export function combine(samples: readonly RunSample[]): Measurement {
  const requests = samples.reduce((sum, s) => sum + s.requests, 0);
  const seconds = samples.reduce((sum, s) => sum + s.seconds, 0);
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const peaks = samples.map((s) => s.peakRssBytes).filter((bytes): bytes is number => bytes !== null);
  const cpu = samples.every((s) => s.cpuSeconds !== null) ? samples.reduce((sum, s) => sum + s.cpuSeconds!, 0) : null;
  return {
    requests,
    seconds,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    non2xx: samples.reduce((sum, s) => sum + s.non2xx, 0),
    peakRssBytes: peaks.length === 0 ? null : Math.max(...peaks),
    cpuMsPerRequest: cpu === null || requests === 0 ? null : (cpu * 1000) / requests,
  };
}

/**
 * What a smoke run holds each load run to: an end after `requests` responses
 * (or its seconds, whichever comes first). Every case, side and report is
 * exercised in a fraction of the time and CPU; the rates it measures are of
 * a run too short to mean anything.
 */
export interface LoadCap {
  readonly requests: number;
}

/** `npm run bench -- --smoke`: 200 requests a run, enough for a CPU time read in 10 ms ticks to be above 0. */
export const SMOKE_CAP: LoadCap = Object.freeze({ requests: 200 });

/** A load run; with a `cap`, a smoke run's (null or absent: as fast as answered, for its seconds). */
export interface LoadRun {
  readonly target: LoadTarget;
  readonly connections: number;
  readonly seconds: number;
  readonly cap?: LoadCap | null;
}

function load({ target, connections, seconds, cap }: LoadRun): ReturnType<typeof autocannon> {
  return autocannon({
    url: target.origin,
    connections,
    duration: seconds,
    // autocannon ignores the duration when given an amount, and looks whether to stop at each sample (every
    // second by default): a capped run ends within 50 ms of its last response.
    ...(cap ? { amount: Math.max(cap.requests, connections), sampleInt: 50 } : {}),
    headers: { ...target.headers },
    requests: target.paths.map((path) => ({ method: 'GET', path })),
  });
}

/** Load without measuring: JIT, pools and caches warm up. */
export async function warmUp(run: LoadRun): Promise<void> {
  if (run.seconds > 0) await load(run);
}

/**
 * Loads the target for `seconds` with `connections` connections (or as its `cap` says), recording
 * every response's latency (autocannon's own histogram keeps whole
 * milliseconds, too coarse for the fast cases) and sampling the target's RSS
 * throughout.
 */
export async function runLoad(loadRun: LoadRun): Promise<RunSample> {
  const { target } = loadRun;
  const memory = sampleResidentBytes({ pid: target.pid });
  const cpuBefore = await cpuSeconds(target.pid);
  const latencies: number[] = [];
  const started = performance.now();
  const run = load(loadRun);
  run.on('response', (_client: unknown, statusCode: number, _bytes: number, milliseconds: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(milliseconds);
  });
  const result = await run;
  // The run ends on autocannon's next one-second tick, not at `seconds` exactly: rates use the time it took.
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await cpuSeconds(target.pid);
  return {
    requests: result.requests.total,
    seconds: elapsed,
    latencies,
    errors: result.errors,
    non2xx: result.non2xx,
    peakRssBytes: await memory.stop(),
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}
