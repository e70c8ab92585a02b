/**
 * `npm start`: serves the API. With no DATABASE_URL it runs on the embedded
 * database in DATA_DIR, created, migrated and filled with the demo brand on
 * first start, and prints a key to try it with.
 */
import type { Server } from 'node:http';
import { createCursorCodec } from '../engine/cursor.ts';
import { API_BASE_PATH } from '../engine/openapi.ts';
import { loadRegistry } from '../engine/registry.ts';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { connect } from './connect.ts';
import { prepareDemo } from './demo.ts';
import { createLogger } from './logger.ts';
import { createRateLimiter } from './rate-limiter.ts';

/** How long in-flight requests get to finish on SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  const registry = await loadRegistry();
  const connection = await connect(config, { serving: true });
  const { db } = connection.database;
  const demo = connection.database.kind === 'embedded' ? await prepareDemo({ db, registry, dataDir: config.dataDir }) : null;
  const limiter = createRateLimiter({
    points: config.rateLimitPoints,
    windowSeconds: config.rateLimitWindowSeconds,
    redisUrl: config.redisUrl,
    logger,
  });
  const app = createApp({ registry, db, limiter, cursors: createCursorCodec(connection.cursorSecret), logger });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(config.port, () => resolve(listening));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://localhost:${port}${API_BASE_PATH}`;
  logger.info({ port, database: connection.database.kind, rateLimits: limiter.backend, families: registry.resources.length }, 'listening');

  const lines = [
    '',
    `  Brand Catalog Read API on ${baseUrl}`,
    `  database: ${connection.database.kind === 'embedded' ? `embedded (${config.dataDir})` : 'DATABASE_URL'}; rate limits: ${limiter.backend}`,
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

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    server.close(async () => {
      await limiter.close();
      await connection.close();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: Error) => {
  process.stderr.write(`Could not start: ${error.message}\n`);
  process.exit(1);
});
