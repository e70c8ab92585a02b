import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

/**
 * One log line per request: method, path (never the query's values nor the
 * key), status, duration, key id, brand and request id.
 */
export function requestLog({ logger }: { logger: Logger }): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info({
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        keyId: ctx.state.keyId ?? null,
        brand: ctx.state.brand?.slug ?? null,
      }, 'request');
    }
  };
}
