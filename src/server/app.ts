import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import type { Knex } from 'knex';
import { createReadReplicas, type ReadReplicas } from '../db/connection/read-replicas.ts';
import { createDatabaseReads } from '../db/database-reads.ts';
import { compileRegistry } from '../engine/compile/compile-registry.ts';
import type { CursorCodec } from '../engine/request/cursor-codec.ts';
import { API_BASE_PATH } from '../engine/openapi/build-openapi.ts';
import type { Registry } from '../engine/definition/registry.ts';
import { createRouteTable } from './http/route-table.ts';
import { buildRoutes } from './http/family-routes.ts';
import { buildApiDocument } from './http/api-document.ts';
import { registerDocsSite } from './http/docs-site.ts';
import { healthRoutes } from './http/health-routes.ts';
import type { KeyCache } from './auth/key-cache.ts';
import type { Logger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { authenticate } from './middleware/authenticate.ts';
import { authorizeBrand } from './middleware/authorize-brand.ts';
import { conditionalGet } from './middleware/conditional-get.ts';
import { envelope } from './middleware/envelope.ts';
import { privateCaching } from './middleware/private-caching.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { routeFallback } from './middleware/route-fallback.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';

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
  /** Where list and get queries run (main.ts spreads them over DATABASE_REPLICA_URLS); without it, on `db`. Keys are always checked on `db`. */
  readonly reads?: ReadReplicas;
}

/**
 * Builds the Koa app and never listens: `main.ts` listens, and tests listen
 * on a free port of their own. Everything is compiled here, once.
 */
export function createApp({ registry, db, limiter, cursors, logger, trustProxy = false, keyCache, reads = createReadReplicas({ primary: { name: 'primary', db }, replicas: [], log: logger }) }: AppDependencies): Koa {
  const families = compileRegistry(registry);
  // Serialized once: the document is about a megabyte of JSON, served as it is.
  const openApi = JSON.stringify(buildApiDocument(registry));
  const router = new Router({ prefix: API_BASE_PATH });

  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApi;
  });
  registerDocsSite(router);

  // Check order of CONTRACT.md §4 (key, brand, parameters, record), with the rate limit counted right
  // after the key: every request a valid key makes counts, whatever its brand.
  // The rate limiter wraps the conditional GET so that it sees a 304 and gives the request back.
  const guard = [privateCaching(), authenticate({ db, failures: limiter.authFailures, ...(keyCache ? { lookup: keyCache.lookup } : {}) }), rateLimit({ limiter }), conditionalGet(), authorizeBrand()];
  // The families' routes are found by a segment table, each with its middleware composed once, here.
  const familyRoutes = createRouteTable({
    base: API_BASE_PATH,
    routes: buildRoutes({ families, reads: createDatabaseReads(reads), cursors }).map((route) => ({
      ...route,
      pattern: `${API_BASE_PATH}${route.path}`,
      run: compose([...guard, route.handler]),
    })),
  });
  const serveFamilies: Middleware = (ctx, next) => {
    const found = ctx.method === 'GET' || ctx.method === 'HEAD' ? familyRoutes.match(ctx.path) : null;
    if (!found) return next();
    ctx.params = found.params;
    // What @koa/router would set: the metrics label a route by its pattern.
    (ctx as { _matchedRoute?: string })._matchedRoute = found.route.pattern;
    ctx.state.family = found.route.family;
    return found.route.run(ctx);
  };

  // Behind a proxy the client is the address the nearest proxy added: the last of X-Forwarded-For.
  // Earlier entries come from the client itself (a proxy that appends keeps them), so trusting the
  // first would let a client pick its own address and escape the failed-authentication limit.
  const app = new Koa({ proxy: trustProxy, maxIpsCount: 1 });
  const metrics = createMetrics({ db, reads });
  app.use(envelope({ logger, metrics }));
  app.use(serveFamilies);
  app.use(metrics.endpoint);
  app.use(healthRoutes({ db, limiter, reads }));
  app.use(routeFallback({ pathExists: (path) => familyRoutes.match(path) !== null || Boolean(router.match(path, 'GET').route) }));
  app.use(router.routes());
  // Errors after the response started (a client that hung up) reach here instead of a body.
  app.on('error', (error: Error) => logger.warn({ err: error.message }, 'response error'));
  return app;
}
