import { performance } from 'node:perf_hooks';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import { compressBody } from './compress-body.ts';
import { writeError } from './write-error.ts';
import { assignRequestId } from './request-id.ts';
import { logRequest } from './request-log.ts';
import { setSecurityHeaders } from './security-headers.ts';

/**
 * What every answer gets, in one middleware rather than five (each layer is
 * a promise and a closure more per request, docs/PERFORMANCE.md), in this
 * order:
 * 1. a request id and the security headers, before anything runs;
 * 2. whatever the rest of the app throws becomes the contract's error body;
 * 3. the body, an error's too, is compressed as the client accepts
 *    (`compress-body.ts`: last, so that everything before works on the
 *    identity bytes);
 * 4. the answer is counted in the metrics and logged, with its final status
 *    (its time includes the compression).
 */
export function envelope({ logger, metrics }: { logger: Logger; metrics: Metrics }): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    assignRequestId(ctx);
    setSecurityHeaders(ctx);
    try {
      await next();
    } catch (error) {
      writeError({ ctx, error, logger });
    }
    // A coding that fails (none has been seen to) leaves the identity body, which is then sent. Most answers need no promise here.
    try {
      const compressing = compressBody(ctx);
      if (compressing) await compressing;
    } catch (error) {
      logger.warn({ err: error, requestId: ctx.state.requestId }, 'compression failed');
    }
    const durationMs = performance.now() - started;
    metrics.record(ctx, durationMs / 1000);
    logRequest({ ctx, logger, durationMs });
  };
}
