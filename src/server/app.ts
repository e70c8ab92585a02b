import Koa from 'koa';
import type { Knex } from 'knex';
import { createReadReplicas, type ReadReplicas } from '../db/connection/read-replicas.ts';
import { createDatabaseReads, type QueryTrace } from '../db/database-reads.ts';
import type { CountAnswerSource } from '../db/counts/exact-counts.ts';
import { compileRegistry } from '../engine/compile/compile-registry.ts';
import type { Registry } from '../engine/definition/registry.ts';
import { API_BASE_PATH } from './http/api-base-path.ts';
import type { CursorCodec } from '../engine/request/cursor-codec.ts';
import { createChangesCodec } from '../engine/request/changes-codec.ts';
import type { KeyUsage } from './auth/key-usage.ts';
import type { KeyCache } from './auth/key-cache.ts';
import { buildApiDocument } from './http/api-document.ts';
import { createApiRoutes } from './http/api-routes.ts';
import { docsSiteRoutes } from './http/docs-site.ts';
import { frontDoorRoutes } from './http/front-door.ts';
import { buildFamilyRoutes } from './http/family-routes.ts';
import { healthRoutes } from './http/health-routes.ts';
import type { HttpRoute } from './http/http-route.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { Logger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { createLiveChanges, type LiveChanges } from './live/live-changes.ts';
import { DEFAULT_SYNC_RETENTION_DAYS, type CorsOrigins } from './config.ts';
import { authenticate } from './middleware/authenticate.ts';
import { staticBody } from './middleware/content-codings.ts';
import { cors } from './middleware/cors.ts';
import { envelope } from './middleware/envelope.ts';
import { authorizeFamily } from './middleware/authorize-family.ts';
import { familyGuard } from './middleware/family-guard.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import type { DatabaseReadiness } from './middleware/require-database.ts';
import { routeFallback } from './middleware/route-fallback.ts';
import { activeTracing } from './tracing/tracing.ts';

export interface AppDependencies {
  readonly registry: Registry;
  readonly db: Knex;
  readonly limiter: RateLimiter;
  readonly cursors: CursorCodec;
  readonly logger: Logger;
  /** Client addresses from `X-Forwarded-For` (TRUST_PROXY): the failed-authentication limit counts per client. */
  readonly trustProxy?: boolean;
  /** Keeps key lookups in process (main.ts wires it with revocation notices); without it every request asks the database. */
  readonly keyCache?: KeyCache;
  /** Where the last use of each key is noted (key-usage.ts); none: not recorded (tests). */
  readonly keyUsage?: KeyUsage;
  /** Where list and get queries run (main.ts spreads them over DATABASE_REPLICA_URLS); without it, on `db`. Keys are always checked on `db`. */
  readonly reads?: ReadReplicas;
  /** Days a deletion stays visible to the changes feed (SYNC_RETENTION_DAYS); an older sync token is 410. 30 unless given. */
  readonly syncRetentionDays?: number;
  /** Whether the database can be served yet (main.ts: on Postgres, once its schema is read); until then the API answers 503. Ready unless given. */
  readonly readiness?: DatabaseReadiness;
  /** Pages of other origins that may read the API (CORS_ORIGINS, middleware/cors.ts); none unless given: no CORS header at all. */
  readonly corsOrigins?: CorsOrigins;
  /** Where changes calls with `wait` wait (main.ts stops it on SIGTERM); one of the app's own unless given. */
  readonly live?: LiveChanges;
}

const ALWAYS_READY: DatabaseReadiness = { ready: () => true, retryAfterSeconds: () => 1 };

/**
 * Builds the Koa app and never listens: `main.ts` listens, and tests listen
 * on a free port of their own. Everything is compiled here, once.
 */
export function createApp(dependencies: AppDependencies): Koa {
  const { db, limiter, logger, trustProxy = false, corsOrigins = [] } = dependencies;
  const reads = dependencies.reads ?? createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: logger });
  const live = dependencies.live ?? createLiveChanges({ db, withMark: reads.state().length > 1, onError: (error) => logger.warn({ err: error.message }, 'live changes: the probe failed') });
  const metrics = createMetrics({ db, reads, waiting: live.waiting });
  const routes = createApiRoutes([
    ...familyRoutes({ ...dependencies, reads, live, onCountAnswer: metrics.countAnswered }),
    ...publicRoutes(dependencies.registry),
    ...healthRoutes({ db, limiter, reads, readiness: dependencies.readiness ?? ALWAYS_READY }),
    { path: '/metrics', run: metrics.endpoint },
  ]);

  // Behind a proxy the client is the address the nearest proxy added: the last of X-Forwarded-For.
  // Earlier entries come from the client itself (a proxy that appends keeps them), so trusting the
  // first would let a client pick its own address and escape the failed-authentication limit.
  const app = new Koa({ proxy: trustProxy, maxIpsCount: 1 });
  // With tracing on (start-tracing.ts, before the app is built), outermost: the envelope's log line and every SQL and Redis span run inside the request's span.
  const tracing = activeTracing();
  if (tracing) app.use(tracing.requestSpans());
  app.use(envelope({ logger, metrics }));
  // Inside the envelope, so that its headers are on the error bodies the envelope writes; before the
  // routes, so that a preflight needs no key and counts against no limit. Absent without CORS_ORIGINS.
  if (corsOrigins === '*' || corsOrigins.length > 0) app.use(cors({ origins: corsOrigins }));
  // A route that answers never reaches the fallback (one layer less on every request); what no route
  // answers, or a route passes on, gets its 404 or 405 there.
  app.use(routes.dispatch);
  app.use(routeFallback({ pathExists: routes.pathExists, suggestPath: routes.suggestPath }));
  // Errors after the response started (a client that hung up) reach here instead of a body.
  app.on('error', (error: Error) => logger.warn({ err: error.message }, 'response error'));
  return app;
}

/**
 * The families' routes, each behind the guard (family-guard.ts: the
 * contract's check order), made once here.
 */
function familyRoutes({ registry, db, limiter, cursors, keyCache, keyUsage, reads, syncRetentionDays = DEFAULT_SYNC_RETENTION_DAYS, readiness = ALWAYS_READY, live, onCountAnswer }: AppDependencies & {
  reads: ReadReplicas;
  live: LiveChanges;
  onCountAnswer: (from: CountAnswerSource) => void;
}): HttpRoute[] {
  const families = compileRegistry(registry);
  const guard = familyGuard({
    readiness,
    authenticate: authenticate({
      db, failures: limiter.authFailures, ...(keyCache ? { lookup: keyCache.lookup, cached: keyCache.cached } : {}), ...(keyUsage ? { seen: keyUsage.seen } : {}),
    }),
    counting: rateLimit({ limiter }),
    authorizeFamily: authorizeFamily({ families }),
  });
  const operations = { families, reads: createDatabaseReads(reads, { ...tracedQueries(), onCountAnswer }), cursors, changes: createChangesCodec(cursors), syncRetentionDays, live };
  return buildFamilyRoutes(operations).map((route) => ({
    path: `${API_BASE_PATH}${route.path}`,
    family: route.family,
    // The handler is last: it answers, and never passes the request on.
    run: (ctx) => guard(ctx, () => route.handler(ctx)),
  }));
}

/** With tracing on, every statement of the families' reads runs in a span named by its plan's label. */
function tracedQueries(): { trace?: QueryTrace } {
  const tracing = activeTracing();
  return tracing ? { trace: (plan, run) => tracing.query(plan, run) } : {};
}

/** The OpenAPI document's bytes, by registry (a registry is frozen, so its document never changes). */
const apiDocumentBodies = new WeakMap<Registry, Buffer>();

/**
 * The OpenAPI document of `registry`, serialized once a process: about 2 MB
 * of JSON, served as it is and compressed once per coding, for every app
 * made of the registry (an instance makes one; the tests, hundreds).
 */
function apiDocumentBody(registry: Registry): Buffer {
  let body = apiDocumentBodies.get(registry);
  if (!body) {
    body = staticBody(Buffer.from(JSON.stringify(buildApiDocument(registry))));
    apiDocumentBodies.set(registry, body);
  }
  return body;
}

/** What anyone may read without a key: the OpenAPI document, the docs site and the front door. */
function publicRoutes(registry: Registry): HttpRoute[] {
  const openApi = apiDocumentBody(registry);
  const document: HttpRoute = {
    path: `${API_BASE_PATH}/openapi.json`,
    run: (ctx) => {
      ctx.type = 'application/json';
      ctx.body = openApi;
    },
  };
  return [document, ...docsSiteRoutes(), ...frontDoorRoutes()];
}
