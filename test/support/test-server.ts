import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import { createApp } from '../../src/server/app.ts';
import { createHttpServer } from '../../src/server/http-server.ts';
import { createLiveChanges, type LiveChanges } from '../../src/server/live/live-changes.ts';
import type { KeyCache } from '../../src/server/auth/key-cache.ts';
import type { CorsOrigins } from '../../src/server/config.ts';
import type { DatabaseReadiness } from '../../src/server/middleware/require-database.ts';
import { createRateLimiter, type RateLimiter } from '../../src/server/limits/rate-limiter.ts';
import { collectingLogger } from './collecting-logger.ts';
import { traceLogFields } from '../../src/server/tracing/start-tracing.ts';
import { activeTracing } from '../../src/server/tracing/tracing.ts';
import { waitUntilCountingInRedis } from './local-redis.ts';
import { testDatabase } from './test-database.ts';
import { sendRequest, type TestResponse } from './test-client.ts';

export const TEST_CURSOR_SECRET = 'test-cursor-secret-0123456789abcdef0123456789';

export type { TestResponse } from './test-client.ts';

export interface TestServer {
  readonly origin: string;
  readonly baseUrl: string;
  readonly registry: Registry;
  readonly limiter: RateLimiter;
  /** Every log line the server wrote, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Where changes calls with `wait` wait: `stop()` is what SIGTERM does in main.ts. */
  readonly live: LiveChanges;
  /** GET (or another method) a path under /api/public/v1, with a key when given. */
  request(path: string, options?: { key?: string | null; method?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  rateLimitPoints?: number;
  rateLimitWindowSeconds?: number;
  redisUrl?: string | null;
  /** Where the limiter keeps its counts in Redis; one of the server's own by default. */
  keyPrefix?: string;
  /** CURSOR_SECRET: one secret, or a rotation's list (the first signs). */
  cursorSecret?: string | readonly string[];
  /** Another registry than the repository's, such as one with an extra family. */
  registry?: Registry;
  /** Another database than the run's (a cluster of the test's own); the test closes it. */
  db?: Knex;
  /** A rate limiter the test made and closes itself; the rate limit options are then unused. */
  limiter?: RateLimiter;
  /** Failed authentications a client may make per minute; tests fail on purpose, so many by default. */
  authFailurePoints?: number;
  /** Read client addresses from X-Forwarded-For, as TRUST_PROXY does. */
  trustProxy?: boolean;
  /** The in-process key cache, as main.ts wires it; without it every request asks the database. */
  keyCache?: KeyCache;
  /** Whether the database can be served yet, as main.ts wires it on Postgres; ready without it. */
  readiness?: DatabaseReadiness;
  /** Origins whose pages may read the API, as CORS_ORIGINS gives them; none by default. */
  corsOrigins?: CorsOrigins;
}

/** The database and registry to serve: the run's, unless the test brings both (then the run's stays unopened). */
async function servedDatabase({ db, registry }: TestServerOptions): Promise<{ db: Knex; registry: Registry }> {
  if (db && registry) return { db, registry };
  const run = await testDatabase();
  return { db: db ?? run.served, registry: registry ?? run.registry };
}

/**
 * Starts the real app on a free loopback port, over the run's database unless
 * given another. Rate limits use REDIS_URL when it is set (with a prefix of
 * this server's own, so two servers never share counts), in-process counters
 * otherwise, unless the test chooses or brings its own limiter.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const served = await servedDatabase(options);
  // With tracing started (a test of traces), the log lines carry the trace ids, as main.ts wires them.
  const { logger, lines: logs } = collectingLogger(activeTracing() ? { mixin: traceLogFields } : {});
  const limiter = options.limiter ?? createRateLimiter({
    points: options.rateLimitPoints ?? 100_000,
    windowSeconds: options.rateLimitWindowSeconds ?? 60,
    redisUrl: options.redisUrl === undefined ? (process.env.REDIS_URL ?? null) : options.redisUrl,
    keyPrefix: options.keyPrefix ?? `bcat:test:${randomBytes(6).toString('hex')}`,
    authFailurePoints: options.authFailurePoints ?? 1_000_000,
    logger,
  });
  // A limiter on the run's Redis counts there before the first request, as tests of exact limits expect: on a slow
  // machine its first connection can take longer than the server waits for it, and a first request counted in
  // process would be forgotten once Redis answers (src/server/limits/limit-redis.ts).
  if (!options.limiter && options.redisUrl === undefined && process.env.REDIS_URL) await waitUntilCountingInRedis(limiter, process.env.REDIS_URL);
  const live = createLiveChanges({ db: served.db, withMark: false, onError: (error) => logger.warn({ err: error.message }, 'live changes: the probe failed') });
  const app = createApp({ ...served, live, limiter, cursors: createCursorCodec(options.cursorSecret ?? TEST_CURSOR_SECRET), logger, trustProxy: options.trustProxy ?? false, keyCache: options.keyCache, readiness: options.readiness, corsOrigins: options.corsOrigins });
  // The server main.ts serves with: its limits and its answers to what Node's parser refuses.
  const server: Server = createHttpServer({ app, logger });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}${API_BASE_PATH}`,
    registry: served.registry,
    limiter,
    logs,
    live,
    request: requestAt(origin),
    async close() {
      live.stop();
      live.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!options.limiter) await limiter.close();
    },
  };
}

/**
 * `TestServer.request` for a server at `origin` (this process's, or one a
 * test spawned): a full URL as it is, a path under /api/ on that server,
 * anything else under the API base. Sent by `sendRequest` (test-client.ts):
 * Node's HTTP client on kept-alive connections, asking for the answer as it
 * is unless the test names a coding.
 */
export function requestAt(origin: string): TestServer['request'] {
  return (path, { key, method = 'GET', headers = {} } = {}) => {
    const url = /^https?:/.test(path) ? path : path.startsWith('/api/') ? `${origin}${path}` : `${origin}${API_BASE_PATH}${path}`;
    return sendRequest(url, { method, headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } });
  };
}
