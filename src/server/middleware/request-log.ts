import type { Context } from 'koa';
import type { Logger } from '../logger.ts';

/**
 * One log line per request: method, path (never the query's values nor the
 * key), status, duration, key id, brand and request id. Nothing is built
 * when the level leaves it out (LOG_LEVEL=warn under load).
 */
export function logRequest({ ctx, logger, durationMs }: { ctx: Context; logger: Logger; durationMs: number }): void {
  if (!logger.isLevelEnabled('info')) return;
  logger.info({
    requestId: ctx.state.requestId,
    method: ctx.method,
    path: ctx.path,
    status: ctx.status,
    durationMs,
    keyId: ctx.state.keyId ?? null,
    brand: ctx.state.brand?.slug ?? null,
  }, 'request');
}
