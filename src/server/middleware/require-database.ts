import { ApiError, DATABASE_NOT_READY_MESSAGE } from '../../engine/request/api-error.ts';

/** What the gate asks: whether the database can be served, and when to come back. */
export interface DatabaseReadiness {
  ready(): boolean;
  retryAfterSeconds(): number;
}

/**
 * 503 with the contract's error body (`internal_error`, the closed list of
 * codes has no other for it) and `Retry-After`, while the database the
 * server started without is not ready (unreachable, missing, or its schema
 * not current: schema-readiness.ts). Nothing is asked of the database: the
 * background wait alone tries it. Once ready, one function call per request.
 */
export function requireDatabase(readiness: DatabaseReadiness): void {
  if (!readiness.ready()) {
    throw new ApiError({
      errorCode: 'internal_error',
      status: 503,
      message: DATABASE_NOT_READY_MESSAGE,
      headers: { 'Retry-After': String(readiness.retryAfterSeconds()) },
    });
  }
}
