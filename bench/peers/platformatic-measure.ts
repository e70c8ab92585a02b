import pg from 'pg';
import type { Log } from '../data/load-data.ts';
import { combine, runLoad, warmUp, type LoadTarget, type Measurement, type RunSample } from '../measure/measure.ts';
import { answerDifferences, askEverySide } from './platformatic-answers.ts';
import { PLATFORMATIC_SIDES, type PlatformaticCase, type PlatformaticCaseName, type PlatformaticSide } from './platformatic-cases.ts';
import { planRuns, sidesInTurn } from '../measure/plan-runs.ts';
import type { ServiceProcess } from '../measure/service-process.ts';
import { IDLE_TIMEOUT_MS, waitUntilIdle } from '../measure/wait-idle.ts';

/** The three sides, running, and the key the server is asked with. */
export interface PlatformaticServices {
  readonly sides: Readonly<Record<PlatformaticSide, ServiceProcess>>;
  readonly key: string;
}

/** How long and how hard each side is loaded. */
export interface LoadSettings {
  /** Seconds of load per case and side, in two mirrored halves. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
}

/** One case measured on the three sides. */
export interface PlatformaticCaseResult {
  readonly name: PlatformaticCaseName;
  readonly title: string;
  readonly measured: Readonly<Record<PlatformaticSide, Measurement>>;
  /** How the answers differed before the load (empty: the same records, and the same total where counted). */
  readonly differences: readonly string[];
}

function describe(m: Measurement): string {
  return `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms, ${m.errors + m.non2xx} errors`;
}

/**
 * Measures one case on the three sides in the runs `planRuns` lays out (each
 * side's time in two halves, A B C C B A; which side goes first turns from
 * case to case), each run after Postgres has finished what the previous one
 * left queued. `checkpoint` is called before each run (it throws to stop).
 */
async function measureCase({ benchCase, index, services, load, monitor, log, checkpoint }: {
  benchCase: PlatformaticCase;
  index: number;
  services: PlatformaticServices;
  load: LoadSettings;
  monitor: pg.Client;
  log: Log;
  checkpoint: () => void;
}): Promise<Record<PlatformaticSide, Measurement>> {
  const samples = Object.fromEntries(PLATFORMATIC_SIDES.map((side) => [side, [] as RunSample[]])) as Record<PlatformaticSide, RunSample[]>;
  const plan = planRuns({ durationSeconds: load.durationSeconds, sides: sidesInTurn(PLATFORMATIC_SIDES, index), cases: [benchCase.name] });
  for (const run of plan) {
    checkpoint();
    if (!(await waitUntilIdle({ client: monitor }))) log(`  Postgres was still busy with the previous run after ${IDLE_TIMEOUT_MS / 1000} s; running anyway`);
    const service = services.sides[run.on];
    const target: LoadTarget = {
      origin: service.origin,
      pid: service.pid,
      headers: run.on === 'server' ? { Authorization: `Bearer ${services.key}` } : {},
      paths: benchCase.paths[run.on],
    };
    if (run.warmUp) await warmUp({ target, connections: load.connections, seconds: load.warmupSeconds });
    const sample = await runLoad({ target, connections: load.connections, seconds: run.seconds });
    samples[run.on].push(sample);
    log(`${benchCase.name} on ${service.name}: ${describe(combine([sample]))}`);
    // A side that died mid-run would only add errors from here on: stop, and say how it ended.
    const exit = service.exitStatus();
    if (exit !== null) throw new Error(`${service.name} ${exit} during ${benchCase.name}`);
    if (sample.errors > 0) log(`  ${service.name} had connection errors; its last output:\n${service.output() || '(none)'}`);
  }
  return { server: combine(samples.server), preparedFloor: combine(samples.preparedFloor), platformatic: combine(samples.platformatic) };
}

/**
 * Every case: the three answers compared (the same records by id, the same
 * total where counted), then the three sides measured. `checkpoint` is called
 * before each case and run (it throws to stop the run). A session on the database
 * watches for Postgres to be idle between runs.
 */
export async function measurePlatformaticCases({ cases, url, services, load, log, checkpoint }: {
  cases: readonly PlatformaticCase[];
  url: string;
  services: PlatformaticServices;
  load: LoadSettings;
  log: Log;
  checkpoint: () => void;
}): Promise<PlatformaticCaseResult[]> {
  const monitor = new pg.Client({ connectionString: url, application_name: 'bench-monitor' });
  const origins = Object.fromEntries(PLATFORMATIC_SIDES.map((side) => [side, services.sides[side].origin])) as Record<PlatformaticSide, string>;
  const results: PlatformaticCaseResult[] = [];
  try {
    await monitor.connect();
    for (const [index, benchCase] of cases.entries()) {
      checkpoint();
      const differences = answerDifferences({ answers: await askEverySide({ origins, key: services.key, benchCase }), counted: benchCase.counted });
      if (differences.length > 0) log(`${benchCase.name}: the answers differ: ${differences.join('; ')}`);
      const measured = await measureCase({ benchCase, index, services, load, monitor, log, checkpoint });
      results.push({ name: benchCase.name, title: benchCase.title, measured, differences });
    }
    return results;
  } finally {
    await monitor.end();
  }
}
