/**
 * `npm start`: serves the API. With no DATABASE_URL it runs on the embedded
 * database in DATA_DIR, created, migrated and filled with the demo brand on
 * first start, and prints a key to try it with. With DATABASE_URL it listens
 * at once, whether or not Postgres answers yet: it answers 503 until the
 * database can be served (open-services.ts).
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { missingServerNodeFlags } from './node-flags.ts';
import type Koa from 'koa';
import { createCursorCodec } from '../engine/request/cursor-codec.ts';
import { API_BASE_PATH } from './http/api-base-path.ts';
import { loadRegistry } from '../engine/definition/registry.ts';
import { createApp } from './app.ts';
import { checkServeConfig, loadConfig, type Config } from './config.ts';
import type { Connection } from '../db/connection/connect.ts';
import { gracefulStop } from './graceful-stop.ts';
import { createHttpServer } from './http-server.ts';
import { createLogger, type Logger } from './logger.ts';
import { openServices } from './open-services.ts';
import { startTombstonePruning } from './tombstone-pruning.ts';
import { startTracing, stopTracing, traceLogFields, tracingWanted } from './tracing/start-tracing.ts';
import { createLiveChanges } from './live/live-changes.ts';

/**
 * The heap policy of a server that keeps little alive between requests
 * (about 25 MB) but allocates a lot per request. By default V8 lets the old
 * space grow to about four times what survived the last full collection
 * before collecting again, so under load the process held 200 MB of which
 * 25 MB was alive. Growing by at most 30 % keeps it near 135 MB for the same
 * throughput: a full collection of a small live heap costs 3 to 7 ms
 * (docs/PERFORMANCE.md, "Memory"). V8 reads the factor at each collection.
 */
const HEAP_GROWING_PERCENT = 30;

/**
 * V8's allocation-site pretenuring off. V8 allocates straight into the old
 * space the objects of an allocation site whose objects were mostly alive at
 * the last scavenges; a page's objects are alive at a scavenge only because
 * their request is in flight, and die a millisecond later, so under load the
 * old space filled with them: about 1.4 MB a scavenge and 9 full collections
 * in 8 s on a first page at 2 connections, against 0.1 MB and 3 with this
 * off, 27 % more pages a second for 21 % less CPU each (docs/PERFORMANCE.md,
 * "Allocation-site pretenuring"). V8 reads the flag at each collection.
 */
const V8_GC_FLAGS = '--no-allocation-site-pretenuring';

async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString(V8_GC_FLAGS);
  const config = loadConfig();
  checkServeConfig(config);
  // Tracing starts before anything is built (OTEL_EXPORTER_OTLP_ENDPOINT); without the setting nothing of it is loaded.
  const logger = createLogger({ level: config.logLevel, ...(tracingWanted() ? { mixin: traceLogFields } : {}) });
  const tracing = await startTracing({ logger });
  const missingFlags = missingServerNodeFlags();
  if (missingFlags.length > 0) {
    logger.warn({ missing: missingFlags }, `Node was started without ${missingFlags.join(' ')} (src/server/node-flags.ts; npm start and the image pass it): an instance holding waiting followers spends more CPU`);
  }
  const registry = await loadRegistry();
  // On Postgres this waits for nothing: the server listens at once and answers 503 until its database can be served.
  const { connection, limiter, keyCache, keyUsage, reads, readiness, release } = await openServices({ config, logger });
  let server: Server;
  let stopPruning = (): void => {};
  const { db } = connection.database;
  // Changes calls that wait: answered at once on SIGTERM, so a rolling restart loses none of them.
  const live = createLiveChanges({ db, withMark: connection.replicas.length > 0, onError: (error) => logger.warn({ err: error.message }, 'live changes: the probe failed') });
  try {
    // The demo data set is code, loaded only for the embedded database: on Postgres it would only take memory.
    const demo = connection.database.kind === 'embedded'
      ? await (await import('./prepare-demo.ts')).prepareDemo({ db, registry, dataDir: config.dataDir })
      : null;
    const app = createApp({ registry, db, limiter, cursors: createCursorCodec(connection.cursorSecrets), logger, trustProxy: config.trustProxy, keyCache, keyUsage, reads, readiness, syncRetentionDays: config.syncRetentionDays, corsOrigins: config.corsOrigins, live });
    server = await listen({ app, port: config.port, logger });
    stopPruning = startTombstonePruning({ db, retentionDays: config.syncRetentionDays, logger });
    // Under `npm run start:cluster` the first worker speaks for all.
    if (cluster.worker === undefined || cluster.worker.id === 1) printBanner({ server, config, connection, limiter: limiter.backend, demo });
  } catch (error) {
    await release(); // the embedded database's lock too
    await stopTracing();
    throw error;
  }
  logger.info({ port: (server.address() as AddressInfo).port, database: connection.database.kind, replicas: connection.replicas.length, ...(cluster.worker ? { worker: cluster.worker.id } : {}), rateLimits: limiter.backend, tracing: tracing !== null, corsOrigins: config.corsOrigins, families: registry.resources.length }, 'listening');
  const stop = gracefulStop({
    server,
    logger,
    release: async () => {
      stopPruning();
      live.close();
      await release();
      // Last, so the spans of the requests that finished during the grace period are exported too.
      await stopTracing();
    },
  });
  const stopAll = (signal: string): void => {
    live.stop();
    stop(signal);
  };
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));
}

function listen({ app, port, logger }: { app: Koa; port: number; logger: Logger }): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createHttpServer({ app, logger });
    server.listen(port);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} is in use (set PORT to another)`) : error);
    });
  });
}

/** The human start-up message, on stderr so stdout stays JSON lines. */
function printBanner({ server, config, connection, limiter, demo }: {
  server: Server;
  config: Config;
  connection: Connection;
  limiter: string;
  demo: { brand: string; key: string; seeded: boolean } | null;
}): void {
  const baseUrl = `http://localhost:${(server.address() as AddressInfo).port}${API_BASE_PATH}`;
  const lines = [
    '',
    `  Brand Catalog Read API on ${baseUrl}`,
    `  database: ${connection.database.kind === 'embedded' ? `embedded (${config.dataDir})` : 'DATABASE_URL'}${connection.replicas.length > 0 ? ` + ${connection.replicas.length} replicas for reads` : ''}; rate limits: ${limiter}`,
    `  docs:     ${baseUrl}/docs`,
    `  OpenAPI:  ${baseUrl}/openapi.json`,
  ];
  if (demo) {
    lines.push(
      `  demo brand: ${demo.brand}${demo.seeded ? ' (demo data loaded)' : ''}`,
      `  demo key:   ${demo.key}`,
      '',
      `  curl -H "Authorization: Bearer ${demo.key}" ${baseUrl}/brands/${demo.brand}/carton-sizes`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`Could not start: ${error.message}\n`);
  process.exit(1);
});
