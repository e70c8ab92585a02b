/**
 * The error codes of CONTRACT.md §4, each with its status and the message a
 * client sees. Handlers and middleware throw `ApiError`; only the server's
 * error middleware writes the body `{ error, errorCode, details? }`.
 */
export type ErrorCode =
  | 'invalid_parameter'
  | 'unsupported_include'
  | 'invalid_cursor'
  | 'cursor_mismatch'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'sync_token_expired'
  | 'internal_error';

export const ERROR_CODES: Readonly<Record<ErrorCode, { readonly status: number; readonly message: string }>> = Object.freeze({
  invalid_parameter: { status: 400, message: 'One or more parameters are invalid.' },
  unsupported_include: { status: 400, message: 'This resource does not support the requested include.' },
  invalid_cursor: { status: 400, message: 'The cursor is not valid.' },
  cursor_mismatch: { status: 400, message: 'The cursor belongs to another brand, collection, filter set or sort.' },
  unauthorized: { status: 401, message: 'A valid API key for this brand is required.' },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'Method not allowed.' },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  sync_token_expired: { status: 410, message: 'The sync token is older than the retention period: start again without a token.' },
  internal_error: { status: 500, message: 'Internal server error.' },
});

/** The message of the 503 `internal_error` a server answers while it cannot serve its database yet (a start without it). */
export const DATABASE_NOT_READY_MESSAGE = 'The service is starting and cannot reach its database yet; try again shortly.';

/**
 * The message of the 503 `internal_error` a serving server answers while its
 * database cannot be reached (down, failing over, not answering).
 */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The service cannot reach its database right now; try again shortly.';

/** One offending parameter, as listed in `details` of a 400. */
export interface ParameterIssue {
  readonly parameter: string;
  readonly message: string;
}

/** An error a client may see: a stable code, its status, and optional details and headers. */
export class ApiError extends Error {
  readonly errorCode: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Readonly<Record<string, string>>;

  constructor({ errorCode, message, details, headers, status }: {
    errorCode: ErrorCode;
    message?: string;
    details?: unknown;
    headers?: Record<string, string>;
    /**
     * Another status than the code's: the contract's codes are a closed list, so a 503 (the service
     * is not available yet) is `internal_error` with status 503.
     */
    status?: number;
  }) {
    super(message ?? ERROR_CODES[errorCode].message);
    this.name = 'ApiError';
    this.errorCode = errorCode;
    this.status = status ?? ERROR_CODES[errorCode].status;
    this.details = details;
    this.headers = Object.freeze({ ...headers });
  }
}

export const invalidParameters = (issues: readonly ParameterIssue[]): ApiError =>
  new ApiError({ errorCode: 'invalid_parameter', details: issues });
