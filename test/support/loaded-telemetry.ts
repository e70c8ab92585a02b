/**
 * Run as a process of its own (`node --import tsx test/support/loaded-telemetry.ts`):
 * wires the serving path as main.ts does (tracing from the environment, the
 * app, the rate limiter, the database reads) on a database that is never
 * reached, answers two requests through it, and prints one JSON line: whether
 * tracing started, the statuses, and the OpenTelemetry modules the process
 * loaded. `@opentelemetry/api` is left out: prom-client loads it for its
 * exemplars whatever this server does, and it does nothing on its own.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import knex from 'knex';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import { createApp } from '../../src/server/app.ts';
import { createRateLimiter } from '../../src/server/limits/rate-limiter.ts';
import { startTracing, stopTracing } from '../../src/server/tracing/start-tracing.ts';
import { collectingLogger } from './collecting-logger.ts';

const { logger } = collectingLogger();
const tracing = await startTracing({ logger });
const db = knex({ client: 'pg', connection: 'postgres://127.0.0.1:1/never' });
const limiter = createRateLimiter({ points: 10, windowSeconds: 60, redisUrl: null, logger });
const app = createApp({ registry: await loadRegistry(), db, limiter, cursors: createCursorCodec('probe-cursor-secret-0123456789abcdef0123'), logger });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const statuses: number[] = [];
for (const path of ['/api/public/v1/openapi.json', '/api/public/v1/brands/acme/products/1']) statuses.push((await fetch(`${origin}${path}`)).status);
await new Promise((resolve) => server.close(resolve));
await Promise.all([db.destroy(), limiter.close(), stopTracing()]);
const loaded = Object.keys(createRequire(import.meta.url).cache)
  .filter((path) => path.includes('@opentelemetry') && !path.includes('@opentelemetry/api/'));
process.stdout.write(`${JSON.stringify({ tracing: tracing !== null, statuses, loaded })}\n`);
