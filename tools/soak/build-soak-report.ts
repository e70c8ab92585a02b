import type { SoakDatabase } from './soak-database.ts';
import type { DriverResult } from './soak-driver.ts';
import { HEAP_RULE, judgeFlatness, RSS_RULE } from './soak-flatness.ts';
import type { SoakRecorder } from './soak-recorder.ts';
import { memoryRange, type SoakReport } from './soak-report.ts';
import type { TrafficOptions } from './soak-traffic.ts';
import { decideVerdict } from './soak-verdict.ts';

/**
 * The report of a finished soak, with its verdict: the totals, whether heap
 * and RSS stayed flat, and what the server said and how it exited.
 */
export function buildSoakReport({ options, database, rateLimit, families, traffic, recorder, server }: {
  options: TrafficOptions;
  database: Pick<SoakDatabase, 'kind' | 'serverEnv' | 'keys'>;
  rateLimit: { readonly points: number; readonly windowSeconds: number };
  families: number;
  traffic: { readonly result: DriverResult; readonly elapsedSeconds: number };
  recorder: SoakRecorder;
  server: { readonly pid: number; readonly exitCode: number | null; readonly warnings: readonly unknown[] };
}): SoakReport {
  const { result, elapsedSeconds } = traffic;
  const totals = recorder.totals();
  const heapFlatness = judgeFlatness(recorder.memory.map((m) => m.heapUsedBytes).filter((v): v is number => v !== null), HEAP_RULE);
  const rssFlatness = judgeFlatness(recorder.memory.map((m) => m.rssBytes).filter((v): v is number => v !== null), RSS_RULE);
  const verdict = decideVerdict({
    statuses: totals.statuses,
    requestErrors: totals.requestErrors,
    unexpected: Object.values(totals.unexpected).reduce((a, b) => a + b, 0),
    skipped: result.skipped,
    heap: heapFlatness,
    rss: rssFlatness,
  });
  return {
    options: { duration: options.duration, rate: options.rate, connections: options.connections, interval: options.interval },
    database: database.kind,
    rateLimits: database.serverEnv.REDIS_URL ? 'redis' : 'memory',
    rateLimitPoints: rateLimit.points,
    rateLimitWindowSeconds: rateLimit.windowSeconds,
    keys: database.keys.map((k) => k.label),
    families,
    elapsedSeconds,
    sent: result.sent,
    skipped: result.skipped,
    totals,
    memory: {
      rss: memoryRange(recorder.memory.map((m) => m.rssBytes)),
      heapUsed: memoryRange(recorder.memory.map((m) => m.heapUsedBytes)),
      heapFlatness,
      rssFlatness,
      samples: recorder.memory,
    },
    intervals: recorder.intervals,
    server: { pid: server.pid, exitCode: server.exitCode, warnings: server.warnings.length, firstWarnings: server.warnings.slice(0, 20) },
    verdict,
  };
}
