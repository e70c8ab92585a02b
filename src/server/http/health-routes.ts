import type { Knex } from 'knex';
import type { Context } from 'koa';
import { databaseAnswers } from '../../db/connection/database-answers.ts';
import type { ReadReplicas } from '../../db/connection/read-replicas.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { DatabaseReadiness } from '../middleware/require-database.ts';
import type { HttpRoute } from './http-route.ts';

/** A readiness check that takes longer than this counts as down: a probe must not hang. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Probes for orchestrators, outside the API's paths and without a key:
 * - `GET /healthz`: the process is alive and serving HTTP (200).
 * - `GET /readyz`: the database answers (200), or not (503). Redis is checked
 *   and reported too, but its outage does not make the instance unready: the
 *   instance keeps serving with in-process rate limits, and taking every
 *   instance out of rotation would turn a Redis blip into an outage.
 *   Replicas (DATABASE_REPLICA_URLS) are reported as `replicas: { available,
 *   total }` and never make an instance unready: reads fall back to the primary.
 *   A server started before its database could be served (unreachable,
 *   missing, schema not current) says `database: 'starting'` (503) until it
 *   can, without asking the database: its start-up wait does.
 * Neither is cached by anything in between.
 */
export function healthRoutes({ db, limiter, reads, readiness }: { db: Knex; limiter: RateLimiter; reads: ReadReplicas; readiness: DatabaseReadiness }): HttpRoute[] {
  const noStore = (ctx: Context): void => {
    ctx.set('Cache-Control', 'no-store');
  };
  const healthz: HttpRoute = {
    path: '/healthz',
    run: async (ctx) => {
      noStore(ctx);
      ctx.body = { status: 'ok' };
    },
  };
  const readyz: HttpRoute = {
    path: '/readyz',
    run: async (ctx) => {
      noStore(ctx);
      const database = !readiness.ready() ? 'starting' : (await databaseAnswers(db, CHECK_TIMEOUT_MS)) ? 'ready' : 'down';
      const redis = limiter.redisState();
      ctx.status = database === 'ready' ? 200 : 503;
      const replicas = reads.state().slice(1);
      ctx.body = {
        status: database !== 'ready' ? 'unavailable' : redis === 'down' ? 'degraded' : 'ok',
        database,
        redis,
        ...(replicas.length > 0 ? { replicas: { available: replicas.filter((replica) => replica.available).length, total: replicas.length } } : {}),
      };
    },
  };
  return [healthz, readyz];
}
