import type { Context } from 'koa';
import { ApiError, type ErrorCode } from '../../engine/request/api-error.ts';
import type { Logger } from '../logger.ts';

/** Statuses that Koa or a library may throw, mapped to the contract's codes. */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'invalid_parameter',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'rate_limited',
};

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const status = (error as { status?: unknown } | null)?.status;
  const code = typeof status === 'number' ? BY_STATUS[status] : undefined;
  return code ? new ApiError({ errorCode: code }) : null;
}

/**
 * The only place that writes an error body: `{ error, errorCode, details? }`.
 * Anything that is not a client error is a 500 whose message, stack and SQL
 * stay in the log; the client gets the request id to quote.
 */
export function writeError({ ctx, error, logger }: { ctx: Context; error: unknown; logger: Logger }): void {
  let apiError = toApiError(error);
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
