import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { openPostgres } from '../src/db/connection/open-database.ts';
import { API_BASE_PATH } from '../src/engine/openapi/build-openapi.ts';
import { DEFAULTS } from '../src/server/config.ts';
import { createKey } from '../src/server/auth/key-admin.ts';
import { readFixtures } from './case-fixtures.ts';
import { buildCases, needsPagePositions, type BenchCase, type CaseName } from './cases.ts';
import { bodyDifferences } from './compare-bodies.ts';
import { FLOOR_PREFIX } from './floor-app.ts';
import {
  benchDatabaseName, databaseUrl, dropDatabase, isLoaded, loadData, loadedSummary, migrate, recreateDatabase, type Log,
} from './load-data.ts';
import { combine, runLoad, warmUp, type LoadTarget, type Measurement, type RunSample } from './measure.ts';
import type { BenchOptions } from './options.ts';
import { groupCases, planRuns, type PlannedRun, type Side } from './plan-runs.ts';
import { residentBytes } from '../tools/lib/process-memory.ts';
import { summarize, type BenchReport, type CaseResult, type RunContext } from './report.ts';
import { planBrands } from './scale.ts';
import { startService, type ServiceProcess } from './service-process.ts';
import { waitUntilIdle } from './wait-idle.ts';

/**
 * Requests a key may make in a window on the server under test: more than any
 * run makes, so the limiter counts every request (in Redis, as in production)
 * but never refuses one. The config's largest allowed value is 10^9.
 */
const RATE_LIMIT_POINTS = 100_000_000;
/**
 * The server logs at `warn`: at `info` it writes a JSON line per request to
 * stdout, which the bench would have to drain, and the run would measure the
 * pipe as much as the server. The floor logs nothing.
 */
const SERVER_LOG_LEVEL = 'warn';

/** The server and the floor, running. */
interface Services {
  readonly server: ServiceProcess;
  readonly floor: ServiceProcess;
  readonly key: string;
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return `PostgreSQL ${(await client.query('show server_version')).rows[0].server_version as string}`;
  } finally {
    await client.end();
  }
}

/** A global key for the run, made with the project's key admin. */
async function createBenchKey(url: string): Promise<string> {
  const database = openPostgres({ url, poolMax: 1, boundStatements: false });
  try {
    return (await createKey(database.db, { brands: [], global: true, expiresAt: null, name: 'bench' })).key;
  } finally {
    await database.close();
  }
}

async function fetchBody({ origin, path, key }: { origin: string; path: string; key: string | null }): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, body };
}

/** How the server's answer to the case's first request differs from the floor's. */
async function compareAnswers({ services, benchCase }: { services: Services; benchCase: BenchCase }): Promise<string[]> {
  const [server, floor] = await Promise.all([
    fetchBody({ origin: services.server.origin, path: benchCase.serverPaths[0]!, key: services.key }),
    fetchBody({ origin: services.floor.origin, path: benchCase.floorPaths[0]!, key: null }),
  ]);
  if (server.status !== 200 || floor.status !== 200) {
    return [`status ${server.status} from the server, ${floor.status} from the floor: ${JSON.stringify(server.status !== 200 ? server.body : floor.body).slice(0, 300)}`];
  }
  return bodyDifferences(server.body, floor.body);
}

function describe(m: Measurement): string {
  return `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms, ${m.errors + m.non2xx} errors`;
}

/**
 * Starts the server (on the bench's database, with Redis, auth and rate
 * limits on) and the floor, each in a process of its own, adding each to
 * `running` as soon as it is up so a failure stops what did start.
 */
async function startServices({ url, redisUrl, poolMax, running }: {
  url: string;
  redisUrl: string | null;
  poolMax: number;
  running: ServiceProcess[];
}): Promise<Services> {
  const key = await createBenchKey(url);
  const server = await startService({
    name: 'server',
    script: 'src/server/main.ts',
    env: {
      DATABASE_URL: url,
      REDIS_URL: redisUrl ?? '',
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_POINTS: String(RATE_LIMIT_POINTS),
      RATE_LIMIT_WINDOW_SECONDS: '60',
      DATABASE_POOL_MAX: String(poolMax),
      LOG_LEVEL: SERVER_LOG_LEVEL,
      NODE_ENV: 'production',
    },
    readyPath: `${API_BASE_PATH}/openapi.json`,
  });
  running.push(server);
  const floor = await startService({
    name: 'floor',
    script: 'bench/floor-server.ts',
    env: { DATABASE_URL: url, DATABASE_POOL_MAX: String(poolMax), NODE_ENV: 'production' },
    readyPath: FLOOR_PREFIX,
  });
  running.push(floor);
  return { server, floor, key };
}

/**
 * Measures a group of cases on both sides, in the runs `planRuns` lays out,
 * each after Postgres has finished the work the previous run left queued.
 */
async function measureGroup({ group, index, services, options, monitor, log }: {
  group: readonly BenchCase[];
  index: number;
  services: Services;
  options: BenchOptions;
  monitor: pg.Client;
  log: Log;
}): Promise<Map<CaseName, Record<Side, Measurement>>> {
  const { server, floor, key } = services;
  const byName = new Map(group.map((benchCase) => [benchCase.name, benchCase]));
  const targetOf = ({ case: name, on }: PlannedRun): LoadTarget => {
    const benchCase = byName.get(name)!;
    return on === 'server'
      ? { origin: server.origin, pid: server.pid, headers: { Authorization: `Bearer ${key}` }, paths: benchCase.serverPaths }
      : { origin: floor.origin, pid: floor.pid, headers: {}, paths: benchCase.floorPaths };
  };
  const samples = new Map(group.map((benchCase) => [benchCase.name, { server: [] as RunSample[], floor: [] as RunSample[] }]));
  const plan = planRuns({ durationSeconds: options.durationSeconds, first: index % 2 === 0 ? 'floor' : 'server', cases: [...byName.keys()] });
  for (const run of plan) {
    if (!(await waitUntilIdle({ client: monitor }))) log('  Postgres was still busy with the previous run after 3 s; running anyway');
    const target = targetOf(run);
    if (run.warmUp) await warmUp({ target, connections: options.connections, seconds: options.warmupSeconds });
    const sample = await runLoad({ target, connections: options.connections, seconds: run.seconds });
    samples.get(run.case)![run.on].push(sample);
    log(`${run.case} on the ${run.on}: ${describe(combine([sample]))}`);
    // A side that died mid-run would only add errors from here on: stop, and say how it ended.
    const exit = services[run.on].exitStatus();
    if (exit !== null) throw new Error(`the ${run.on} ${exit} during ${run.case}`);
    if (sample.errors > 0) log(`  the ${run.on} had connection errors; its last output:\n${services[run.on].output() || '(none)'}`);
  }
  return new Map([...samples].map(([name, sides]) => [name, { server: combine(sides.server), floor: combine(sides.floor) }]));
}

/**
 * The whole benchmark: the data (loaded, or kept from an earlier run), the
 * server and the floor in processes of their own, each case measured on both
 * in mirrored runs (`planRuns`; page 2 and the deep page together; which side
 * goes first alternates from group to group), then both stopped and the
 * database dropped unless kept. `signal` stops it between steps, cleaning up
 * the same way.
 */
export async function runBenchmark({ options, log, signal }: { options: BenchOptions; log: Log; signal?: AbortSignal }): Promise<BenchReport> {
  const { scale } = options;
  const name = benchDatabaseName(scale);
  const url = databaseUrl(options.adminUrl, name);
  const startedAt = new Date().toISOString();
  const loadAverageBefore = loadavg();
  const poolMax = DEFAULTS.databasePoolMax;
  const running: ServiceProcess[] = [];
  let monitor: pg.Client | null = null;
  const checkpoint = (): void => signal?.throwIfAborted();

  try {
    let load: RunContext['load'];
    if (options.keepData && (await isLoaded({ adminUrl: options.adminUrl, name, scale }))) {
      await migrate(url);
      load = { ...(await loadedSummary(url)), reused: true };
      log(`reusing the loaded database ${name}`);
    } else {
      log(`loading ${name}`);
      await recreateDatabase({ adminUrl: options.adminUrl, name });
      const loaded = await loadData({ url, scale, log });
      load = { seconds: loaded.seconds, cpuSeconds: loaded.cpuSeconds, rows: loaded.rows, reused: false };
      log(`loaded in ${loaded.seconds.toFixed(1)} s${loaded.cpuSeconds === null ? '' : ` (${loaded.cpuSeconds.toFixed(1)} s of Postgres CPU)`}`);
    }
    checkpoint();

    const services = await startServices({ url, redisUrl: options.redisUrl, poolMax, running });
    const { server, floor, key } = services;
    const idleRssBytes = { server: await residentBytes(server.pid), floor: await residentBytes(floor.pid) };
    log(`server (pid ${server.pid}) and floor (pid ${floor.pid}) are up`);
    checkpoint();

    const brands = planBrands(scale);
    const fixtures = await readFixtures({
      url, brands, target: { origin: server.origin, key }, needPages: needsPagePositions(options.cases), log,
    });
    const cases = buildCases({ names: options.cases, fixtures });
    const results: CaseResult[] = [];
    monitor = new pg.Client({ connectionString: url, application_name: 'bench-monitor' });
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
        const { server: onServer, floor: onFloor } = measured.get(benchCase.name)!;
        results.push({ name: benchCase.name, title: benchCase.title, server: onServer, floor: onFloor, differences: differences.get(benchCase.name)! });
      }
    }

    const context: RunContext = {
      scale,
      startedAt,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      poolMax,
      load,
      machine: {
        cpus: cpus().length, loadAverage: { before: loadAverageBefore, after: loadavg() }, node: process.versions.node, postgres: await postgresVersion(url),
      },
      idleRssBytes,
    };
    return summarize({ context, cases: results });
  } catch (error) {
    // What the processes said last is often the reason (a crash, a refused setting).
    for (const service of running) log(`last output of the ${service.name} (pid ${service.pid}):\n${service.output() || '(none)'}`);
    throw error;
  } finally {
    await monitor?.end();
    await Promise.all(running.map((service) => service.stop()));
    if (!options.keepData) {
      await dropDatabase({ adminUrl: options.adminUrl, name });
      log(`dropped ${name}`);
    } else {
      log(`kept ${name}`);
    }
  }
}
