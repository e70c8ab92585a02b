import { cpus, loadavg } from 'node:os';
import { DEFAULTS } from '../../src/server/config.ts';
import { benchDatabaseName, databaseUrl, dropDatabase, migrate, postgresVersion, recreateDatabase } from '../data/bench-database.ts';
import { startBenchServices } from './bench-services.ts';
import { loadData, type Log } from '../data/load-data.ts';
import { isLoaded, loadedSummary } from '../data/loaded-marker.ts';
import { measureCases, readCaseFixtures } from './measure-cases.ts';
import { measureLoaded } from './measure-loaded.ts';
import { measureFeed } from './measure-feed.ts';
import { measureCompression } from './measure-compression.ts';
import type { BenchOptions } from './options.ts';
import { residentBytes } from '../../tools/shared/process-memory.ts';
import { summarize, type BenchReport, type RunContext } from '../report/report.ts';
import type { ServiceProcess } from './service-process.ts';

/** The data of the options' scale: the kept database when `keepData` finds one loaded, or a fresh load. */
async function prepareData({ options, name, url, log }: { options: BenchOptions; name: string; url: string; log: Log }): Promise<RunContext['load']> {
  if (options.keepData && (await isLoaded({ adminUrl: options.adminUrl, name, scale: options.scale }))) {
    await migrate(url);
    const load = { ...(await loadedSummary(url)), reused: true };
    log(`reusing the loaded database ${name}`);
    return load;
  }
  log(`loading ${name}`);
  await recreateDatabase({ adminUrl: options.adminUrl, name });
  const loaded = await loadData({ url, scale: options.scale, log });
  log(`loaded in ${loaded.seconds.toFixed(1)} s${loaded.cpuSeconds === null ? '' : ` (${loaded.cpuSeconds.toFixed(1)} s of Postgres CPU)`}`);
  return { seconds: loaded.seconds, cpuSeconds: loaded.cpuSeconds, rows: loaded.rows, reused: false };
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
  const checkpoint = (): void => signal?.throwIfAborted();

  try {
    const load = await prepareData({ options, name, url, log });
    checkpoint();
    const services = await startBenchServices({ url, redisUrl: options.redisUrl, poolMax, running });
    const { server, floor } = services;
    const idleRssBytes = { server: await residentBytes(server.pid), floor: await residentBytes(floor.pid) };
    log(`server (pid ${server.pid}) and floor (pid ${floor.pid}) are up`);
    checkpoint();
    const fixtures = await readCaseFixtures({ options, url, services, log });
    const results = await measureCases({ options, url, services, fixtures, log, checkpoint });
    checkpoint();
    const loaded = await measureLoaded({ options, url, services, fixtures, log, checkpoint });
    checkpoint();
    const compression = await measureCompression({ options, url, services, fixtures, log, checkpoint });
    checkpoint();
    // Last: its cases write (the batches insert and update products, the writer case updates many).
    const feed = await measureFeed({ options, url, services, log });
    const context: RunContext = {
      scale,
      startedAt,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      smoke: options.smoke ?? null,
      poolMax,
      load,
      machine: {
        cpus: cpus().length, loadAverage: { before: loadAverageBefore, after: loadavg() }, node: process.versions.node, postgres: await postgresVersion(url),
      },
      idleRssBytes,
    };
    return summarize({ context, cases: results, feed, loaded, compression });
  } catch (error) {
    // What the processes said last is often the reason (a crash, a refused setting).
    for (const service of running) log(`last output of the ${service.name} (pid ${service.pid}):\n${service.output() || '(none)'}`);
    throw error;
  } finally {
    await Promise.all(running.map((service) => service.stop()));
    if (!options.keepData) {
      await dropDatabase({ adminUrl: options.adminUrl, name });
      log(`dropped ${name}`);
    } else {
      log(`kept ${name}`);
    }
  }
}
