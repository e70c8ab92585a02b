import type { Context } from 'koa';
import { ApiError, DATABASE_UNAVAILABLE_MESSAGE, type ErrorCode } from '../../engine/request/api-error.ts';
import { isConnectionFailure } from '../../db/connection/connection-failure.ts';
import type { Logger } from '../logger.ts';

/** Statuses that Koa or a library may throw, mapped to the contract's codes. */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'invalid_parameter',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'rate_limited',
};

/**
 * Seconds a client is asked to wait while the database cannot be reached: a
 * restart or a failover takes seconds to tens of seconds, and a request
 * retried sooner only meets the same outage.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * CONTRACT.md §4: a request that needs a database that cannot be reached gets
 * 503 with `Retry-After` and the error body. The closed list of codes has no
 * other code for it, so it is `internal_error` with status 503, the shape of
 * the 503 of a server that starts before its database (require-database.ts).
 */
export function databaseUnavailable(): ApiError {
  return new ApiError({
    errorCode: 'internal_error',
    status: 503,
    message: DATABASE_UNAVAILABLE_MESSAGE,
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const status = (error as { status?: unknown } | null)?.status;
  const code = typeof status === 'number' ? BY_STATUS[status] : undefined;
  return code ? new ApiError({ errorCode: code }) : null;
}

/**
 * The only place that writes an error body: `{ error, errorCode, details? }`.
 * A connection failure (isConnectionFailure: refused, reset, shut down, no
 * pooled connection or no answer in time) is the 503 above, logged as a
 * warning: the database, not this request, is at fault. Anything else that is
 * not a client error is a 500 whose message, stack and SQL stay in the log;
 * the client gets the request id to quote.
 */
export function writeError({ ctx, error, logger }: { ctx: Context; error: unknown; logger: Logger }): void {
  let apiError = toApiError(error);
  if (!apiError && isConnectionFailure(error)) {
    logger.warn({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, reason: (error as Error).message }, 'database unavailable');
    apiError = databaseUnavailable();
  }
  if (!apiError) {
    logger.error({
      err: error,
      requestId: ctx.state.requestId,
      method: ctx.method,
      path: ctx.path,
      family: ctx.state.family ?? null,
      brand: ctx.state.brand?.slug ?? null,
      keyId: ctx.state.keyId ?? null,
    }, 'unexpected error');
    apiError = new ApiError({ errorCode: 'internal_error', details: { requestId: ctx.state.requestId } });
  }
  ctx.status = apiError.status;
  for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
  ctx.body = {
    error: apiError.message,
    errorCode: apiError.errorCode,
    ...(apiError.details === undefined ? {} : { details: apiError.details }),
  };
}
