import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { databaseAnswers } from '../../db/connection/database-answers.ts';
import type { ReadReplicas } from '../../db/connection/read-replicas.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';

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
 * Neither is cached by anything in between.
 */
export function healthRoutes({ db, limiter, reads }: { db: Knex; limiter: RateLimiter; reads: ReadReplicas }): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz' && ctx.path !== '/readyz') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    const database = (await databaseAnswers(db, CHECK_TIMEOUT_MS)) ? 'ready' : 'down';
    const redis = limiter.redisState();
    ctx.status = database === 'ready' ? 200 : 503;
    const replicas = reads.state().slice(1);
    ctx.body = {
      status: database !== 'ready' ? 'unavailable' : redis === 'down' ? 'degraded' : 'ok',
      database,
      redis,
      ...(replicas.length > 0 ? { replicas: { available: replicas.filter((replica) => replica.available).length, total: replicas.length } } : {}),
    };
  };
}
