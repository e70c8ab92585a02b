import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULTS } from '../../src/server/config.ts';
import { benchDatabaseName, databaseUrl, migrate, postgresVersion } from '../data/bench-database.ts';
import { startBenchServer, startFloor } from '../measure/bench-services.ts';
import { readFixtures } from '../measure/case-fixtures.ts';
import type { Log } from '../data/load-data.ts';
import { isLoaded } from '../data/loaded-marker.ts';
import { buildPlatformaticCases, platformaticWalks } from './platformatic-cases.ts';
import { writePlatformaticConfig } from './platformatic-config.ts';
import { measurePlatformaticCases, type PlatformaticServices } from './platformatic-measure.ts';
import type { PlatformaticOptions } from './platformatic-options.ts';
import { summarizePlatformatic, type PlatformaticReport } from './platformatic-report.ts';
import { ensureTools, type BenchTools } from './platformatic-tools.ts';
import { planBrands, scaleName } from '../data/scale.ts';
import { startService, type ServiceProcess } from '../measure/service-process.ts';

/** The comparison's database is not there to be read: nothing was started. */
export class NotLoadedError extends Error {
  override name = 'NotLoadedError';
}

/** Platformatic DB on the configuration at `configPath`, on the tools' Node, added to `running` once it answers. */
async function startPlatformatic({ tools, configPath, running }: { tools: BenchTools; configPath: string; running: ServiceProcess[] }): Promise<ServiceProcess> {
  const service = await startService({
    name: 'Platformatic DB',
    script: 'bench/peers/platformatic-server.ts',
    env: { PLATFORMATIC_DB: tools.platformaticEntry, PLATFORMATIC_CONFIG: configPath, NODE_ENV: 'production' },
    readyPath: '/',
    node: tools.node,
  });
  running.push(service);
  return service;
}

/** The three sides, each in a process of its own on the tools' Node, with the pool size of the server's default. */
async function startSides({ options, url, tools, configDir, running }: {
  options: PlatformaticOptions;
  url: string;
  tools: BenchTools;
  configDir: string;
  running: ServiceProcess[];
}): Promise<PlatformaticServices> {
  const poolMax = DEFAULTS.databasePoolMax;
  const { server, key } = await startBenchServer({ url, redisUrl: options.redisUrl, poolMax, running, node: tools.node });
  const preparedFloor = await startFloor({ name: 'prepared floor', prepared: true, url, poolMax, running, node: tools.node });
  const configPath = await writePlatformaticConfig({ dir: configDir, url, poolSize: poolMax, version: tools.platformaticVersion });
  const platformatic = await startPlatformatic({ tools, configPath, running });
  return { sides: { server, preparedFloor, platformatic }, key };
}

/**
 * The comparison: the database `npm run bench -- --keep-data` loaded at the
 * options' scale (refused when there is none: it is only read, never
 * loaded here), Platformatic DB installed when missing, the three sides
 * started, every case checked and measured, then every process stopped and
 * the configuration's folder removed, on success, failure or `signal` alike.
 * `running` is the caller's, so that a second Ctrl-C can kill what is left.
 */
export async function runPlatformaticComparison({ options, log, signal, running }: {
  options: PlatformaticOptions;
  log: Log;
  signal?: AbortSignal;
  running: ServiceProcess[];
}): Promise<PlatformaticReport> {
  const name = benchDatabaseName(options.scale);
  const url = databaseUrl(options.adminUrl, name);
  if (!(await isLoaded({ adminUrl: options.adminUrl, name, scale: options.scale }))) {
    throw new NotLoadedError(`no loaded bench database ${name} (scale ${scaleName(options.scale)}) at ${options.adminUrl}: load it first with \`npm run bench -- --keep-data\` at the same --products, --brands and --big-brand (\`--cases get-by-id --duration 1\` keeps it short)`);
  }
  const checkpoint = (): void => signal?.throwIfAborted();
  const tools = await ensureTools({ dir: options.toolsDir, log, ...(signal ? { signal } : {}) });
  checkpoint();
  // As `npm run bench -- --keep-data` does with a kept database: the server reads the schema of this checkout.
  await migrate(url);
  const startedAt = new Date().toISOString();
  const loadAverageBefore = loadavg();
  const configDir = await mkdtemp(join(tmpdir(), 'bcat-platformatic-'));
  try {
    const services = await startSides({ options, url, tools, configDir, running });
    log(`up on Node ${tools.nodeVersion}: ${running.map((s) => `${s.name} (pid ${s.pid})`).join(', ')}`);
    checkpoint();
    const { server } = services.sides;
    const fixtures = await readFixtures({
      url, brands: planBrands(options.scale), target: { origin: server.origin, key: services.key }, walks: platformaticWalks(options.cases), log,
    });
    const cases = buildPlatformaticCases({ names: options.cases, fixtures });
    const load = { durationSeconds: 2 * options.halfSeconds, warmupSeconds: options.warmupSeconds, connections: options.connections };
    const results = await measurePlatformaticCases({ cases, url, services, load, log, checkpoint });
    return summarizePlatformatic({
      context: {
        scale: options.scale, startedAt, ...load, poolMax: DEFAULTS.databasePoolMax, platformaticVersion: tools.platformaticVersion, node: tools.nodeVersion,
        machine: { cpus: cpus().length, loadAverage: { before: loadAverageBefore, after: loadavg() }, postgres: await postgresVersion(url) },
      },
      results,
    });
  } catch (error) {
    // What the processes said last is often the reason (a crash, a refused setting); not after an interrupt, which stopped them.
    if (!signal?.aborted) for (const service of running) log(`last output of ${service.name} (pid ${service.pid}):\n${service.output() || '(none)'}`);
    throw error;
  } finally {
    await Promise.all(running.map((service) => service.stop()));
    running.length = 0;
    await rm(configDir, { recursive: true, force: true });
  }
}
