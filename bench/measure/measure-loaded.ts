import pg from 'pg';
import { buildCases, type CaseName } from './cases.ts';
import { measureGroup, type CaseStage } from './measure-cases.ts';
import type { Measurement } from './measure.ts';
import { measureFreshCounts, type FreshCounts } from './fresh-counts.ts';
import { loadedCasesOf, WRITE_LOAD_APPLICATION, WRITE_LOADS, startWriteLoad, type WriteLoadName } from './write-loads.ts';

/** One case measured on the server and both floors while a write load ran, at one number of connections. */
export interface LoadedCaseResult {
  readonly load: WriteLoadName;
  readonly connections: number;
  readonly name: CaseName;
  readonly title: string;
  readonly server: Measurement;
  readonly floor: Measurement;
  readonly preparedFloor: Measurement;
  /** Server req/s over floor req/s. */
  readonly requestsRatio: number;
  /** Server req/s over prepared floor req/s. */
  readonly preparedRatio: number;
}

/**
 * Server req/s over another side's: infinite when that side answered nothing
 * in the run while the server did (a floor whose every request outlasted the
 * run), NaN when neither answered.
 */
export function requestsOver(server: Measurement, other: Measurement): number {
  if (other.requestsPerSecond > 0) return server.requestsPerSecond / other.requestsPerSecond;
  return server.requestsPerSecond > 0 ? Number.POSITIVE_INFINITY : Number.NaN;
}

/** A write load and what was measured under it. */
export interface LoadedRun {
  readonly load: WriteLoadName;
  /** Writes per second the load achieved over its whole run (its target is the load's rate). */
  readonly writesPerSecond: number;
  readonly cases: readonly LoadedCaseResult[];
  /**
   * When the counts case ran under the load: how many counts the server ran
   * for its answers, in a run of its own after the measured ones (fresh-counts.ts).
   */
  readonly freshCounts: FreshCounts | null;
}

/** The case whose answers `freshCounts` checks. */
const COUNTS_CASE: CaseName = 'counts-status';

/**
 * The floor's cases again (`loadedCasesOf` the load), on the server and the
 * floor in the same mirrored runs, while each selected write load commits in
 * the background: every case at each of `options.loadConnections` (2, 32 and
 * 256 by default). The load runs from before the first case to after the
 * last, so every run meets it. Where counts by status ran, a run of the
 * server alone then checks how many of its counts were fresh (fresh-counts.ts;
 * unless `options.checkFreshCounts` is false).
 */
export async function measureLoaded({ options, url, services, fixtures, log, checkpoint }: CaseStage): Promise<LoadedRun[]> {
  const client = new pg.Client({ connectionString: url, application_name: WRITE_LOAD_APPLICATION });
  const monitor = new pg.Client({ connectionString: url, application_name: 'bench-monitor' });
  await client.connect();
  await monitor.connect();
  const runs: LoadedRun[] = [];
  try {
    for (const name of options.writeLoads) {
      checkpoint();
      const load = WRITE_LOADS[name];
      const cases = buildCases({ names: loadedCasesOf(name), fixtures });
      log(`under ${load.title}:`);
      const running = await startWriteLoad({ url, client, load, read: [fixtures.big, fixtures.small] });
      const results: LoadedCaseResult[] = [];
      let freshCounts: FreshCounts | null = null;
      try {
        for (const [index, connections] of options.loadConnections.entries()) {
          for (const benchCase of cases) {
            checkpoint();
            const measured = await measureGroup({ group: [benchCase], index, services, options: { ...options, connections }, monitor, log: (line) => log(`  ${connections} connections: ${line}`) });
            const { server, floor, preparedFloor } = measured.get(benchCase.name)!;
            const over = (other: Measurement): number => requestsOver(server, other);
            results.push({
              load: name, connections, name: benchCase.name, title: benchCase.title, server, floor, preparedFloor,
              requestsRatio: over(floor), preparedRatio: over(preparedFloor),
            });
          }
        }
        const counts = cases.find((benchCase) => benchCase.name === COUNTS_CASE);
        if (counts && options.checkFreshCounts !== false) {
          checkpoint();
          const { server } = services;
          freshCounts = await measureFreshCounts({
            monitor, brand: fixtures.big, connections: options.connections, seconds: options.durationSeconds, ignore: [WRITE_LOAD_APPLICATION],
            target: { origin: server.origin, pid: server.pid, headers: { Authorization: `Bearer ${services.key}` }, paths: counts.serverPaths },
          });
          log(`  the server ran ${freshCounts.countsRun.toFixed(0)} counts after ${freshCounts.checks} probes for ${freshCounts.answers} answers: ${(freshCounts.freshShare * 100).toFixed(0)} % of them from a count run during the request (${freshCounts.connections} connections)`);
        }
      } finally {
        const { writesPerSecond } = await running.stop();
        log(`  the load wrote ${writesPerSecond.toFixed(0)} times a second`);
        runs.push({ load: name, writesPerSecond, cases: results, freshCounts });
      }
    }
    return runs;
  } finally {
    await client.end();
    await monitor.end();
  }
}
