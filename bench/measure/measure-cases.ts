import pg from 'pg';
import type { BenchServices } from './bench-services.ts';
import { readFixtures } from './case-fixtures.ts';
import { buildCases, walksOf, type BenchCase, type CaseFixtures, type CaseName } from './cases.ts';
import { compareAnswers } from './compare-answers.ts';
import type { Log } from '../data/load-data.ts';
import { combine, runLoad, warmUp, type LoadTarget, type Measurement, type RunSample } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { groupCases, planRuns, SIDES, sidesInTurn, type PlannedRun, type Side } from './plan-runs.ts';
import type { CaseResult } from './case-result.ts';
import { planBrands } from '../data/scale.ts';
import { IDLE_TIMEOUT_MS, waitUntilIdle } from './wait-idle.ts';
import { WRITE_LOAD_APPLICATION } from './write-loads.ts';

function describe(m: Measurement): string {
  return `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms, ${m.errors + m.non2xx} errors`;
}

/** Reads what the cases need (the walks to the deep pages only those the selected cases page through). */
export function readCaseFixtures({ options, url, services, log }: { options: BenchOptions; url: string; services: BenchServices; log: Log }): Promise<CaseFixtures> {
  return readFixtures({
    url, brands: planBrands(options.scale), target: { origin: services.server.origin, key: services.key }, walks: walksOf(options.cases), log,
  });
}

/** What a stage of the floor's cases works with: the run's options, the database, the running sides, the case fixtures. */
export interface CaseStage {
  readonly options: BenchOptions;
  readonly url: string;
  readonly services: BenchServices;
  readonly fixtures: CaseFixtures;
  readonly log: Log;
  /** Called between steps; throws to stop the run. */
  readonly checkpoint: () => void;
}

/**
 * Every case of the options, group by group (`groupCases`): the server's and
 * the floor's answers compared, then both sides measured. `checkpoint` is
 * called before each group (it throws to stop the run). A session on the
 * database watches for Postgres to be idle between runs.
 */
export async function measureCases({ options, url, services, fixtures, log, checkpoint }: CaseStage): Promise<CaseResult[]> {
  const cases = buildCases({ names: options.cases, fixtures });
  const results: CaseResult[] = [];
  const monitor = new pg.Client({ connectionString: url, application_name: 'bench-monitor' });
  try {
    await monitor.connect();
    for (const [index, names] of groupCases(options.cases).entries()) {
      checkpoint();
      const group = names.map((name) => cases.find((benchCase) => benchCase.name === name)!);
      const differences = new Map<CaseName, string[]>();
      for (const benchCase of group) {
        differences.set(benchCase.name, await compareAnswers({ services, benchCase }));
        if (differences.get(benchCase.name)!.length > 0) log(`${benchCase.name}: the server and the floor answer differently: ${differences.get(benchCase.name)!.join('; ')}`);
      }
      const measured = await measureGroup({ group, index, services, options, monitor, log });
      for (const benchCase of group) {
        results.push({ name: benchCase.name, title: benchCase.title, ...measured.get(benchCase.name)!, differences: differences.get(benchCase.name)! });
      }
    }
    return results;
  } finally {
    await monitor.end();
  }
}

/**
 * Measures a group of cases on both sides, in the runs `planRuns` lays out,
 * each after Postgres has finished the work the previous run left queued.
 */
export async function measureGroup({ group, index, services, options, monitor, log }: {
  group: readonly BenchCase[];
  index: number;
  services: BenchServices;
  options: BenchOptions;
  monitor: pg.Client;
  log: Log;
}): Promise<Map<CaseName, Record<Side, Measurement>>> {
  const byName = new Map(group.map((benchCase) => [benchCase.name, benchCase]));
  const targetOf = ({ case: name, on }: PlannedRun): LoadTarget => {
    const benchCase = byName.get(name)!;
    const service = services[on];
    return on === 'server'
      ? { origin: service.origin, pid: service.pid, headers: { Authorization: `Bearer ${benchCase.restricted ? services.restrictedKey : services.key}` }, paths: benchCase.serverPaths }
      : { origin: service.origin, pid: service.pid, headers: {}, paths: benchCase.floorPaths };
  };
  const samples = new Map(group.map((benchCase) => [benchCase.name, Object.fromEntries(SIDES.map((side) => [side, [] as RunSample[]])) as Record<Side, RunSample[]>]));
  const plan = planRuns({ durationSeconds: options.durationSeconds, sides: sidesInTurn(SIDES, index), cases: [...byName.keys()] });
  for (const run of plan) {
    if (!(await waitUntilIdle({ client: monitor, ignore: [WRITE_LOAD_APPLICATION] }))) {
      log(`  Postgres was still busy with the previous run after ${IDLE_TIMEOUT_MS / 1000} s; running anyway`);
    }
    const target = targetOf(run);
    if (run.warmUp) await warmUp({ target, connections: options.connections, seconds: options.warmupSeconds, cap: options.smoke });
    const sample = await runLoad({ target, connections: options.connections, seconds: run.seconds, cap: options.smoke });
    samples.get(run.case)![run.on].push(sample);
    log(`${run.case} on the ${run.on}: ${describe(combine([sample]))}`);
    // A side that died mid-run would only add errors from here on: stop, and say how it ended.
    const exit = services[run.on].exitStatus();
    if (exit !== null) throw new Error(`the ${run.on} ${exit} during ${run.case}`);
    if (sample.errors > 0) log(`  the ${run.on} had connection errors; its last output:\n${services[run.on].output() || '(none)'}`);
  }
  return new Map([...samples].map(([name, sides]) => [name, {
    server: combine(sides.server), floor: combine(sides.floor), preparedFloor: combine(sides.preparedFloor),
  }]));
}
