import { ERROR_CODES, type ErrorCode } from './families.generated.ts';

/**
 * The contract's codes, plus `unexpected_response` for an answer that is not
 * the API's (a proxy's HTML error page, a body that is not JSON).
 */
export type ApiErrorCode = ErrorCode | 'unexpected_response';

/** One offending parameter in `details` of a 400 `invalid_parameter`. */
export interface ParameterIssue {
  readonly parameter: string;
  readonly message: string;
}

/**
 * An error response of the API, after any retries: the HTTP status, the
 * contract's `errorCode`, its `details` and the request id the server gave it
 * (quote it to the operators; a 500 carries nothing else).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: ApiErrorCode;
  readonly details: unknown;
  /** The server's `X-Request-Id`, or null when the response had none. */
  readonly requestId: string | null;
  /** `Retry-After` of a 429 in seconds, or null. */
  readonly retryAfterSeconds: number | null;
  /** The URL asked, without its query (filters may be private). */
  readonly url: string;

  constructor({ status, errorCode, message, details, requestId, retryAfterSeconds, url }: {
    status: number;
    errorCode: ApiErrorCode;
    message: string;
    details?: unknown;
    requestId: string | null;
    retryAfterSeconds: number | null;
    url: string;
  }) {
    super(describe({ status, errorCode, message, details, requestId, url }));
    this.name = 'ApiError';
    this.status = status;
    this.errorCode = errorCode;
    this.details = details;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
    this.url = url;
  }

  /**
   * Why a 401 refused the key (`details.reason`): `missing`, `malformed`,
   * `unknown_or_revoked`, `expired`, `brand_not_allowed` or `family_not_allowed`; null otherwise.
   */
  get keyRefusal(): string | null {
    if (this.status !== 401 || typeof this.details !== 'object' || this.details === null) return null;
    const { reason } = this.details as { reason?: unknown };
    return typeof reason === 'string' ? reason : null;
  }

  /** The offending parameters of a 400 `invalid_parameter` (empty otherwise). */
  get parameterIssues(): readonly ParameterIssue[] {
    return isIssueList(this.details) ? this.details : [];
  }
}

/**
 * A 410 `sync_token_expired` from a changes feed: the token (or the batch it
 * started) is older than the server keeps deletions (`SYNC_RETENTION_DAYS`),
 * or older than a `TRUNCATE` that removed the brand's rows of the family,
 * so what changed since cannot be told. Start again without a token: a full
 * sync lists every current record, and a copy must drop the records it does
 * not list (they were deleted meanwhile).
 */
export class SyncTokenExpiredError extends ApiError {
  constructor(args: ConstructorParameters<typeof ApiError>[0]) {
    super(args);
    this.name = 'SyncTokenExpiredError';
  }
}

/** The request never got an answer (refused, reset, DNS), even after the retries. */
export class NetworkError extends Error {
  readonly url: string;
  readonly attempts: number;

  constructor({ url, attempts, cause }: { url: string; attempts: number; cause: unknown }) {
    const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    super(`GET ${url} failed after ${attempts} attempt(s): ${reason}`, { cause });
    this.name = 'NetworkError';
    this.url = url;
    this.attempts = attempts;
  }
}

function isIssueList(value: unknown): value is ParameterIssue[] {
  return Array.isArray(value) && value.every((item) => typeof item?.parameter === 'string' && typeof item?.message === 'string');
}

/** `GET http://host/api/public/v1/...: 400 invalid_parameter: One or more parameters are invalid. (limit: must be <= 100) [request 1f3c...]` */
function describe({ status, errorCode, message, details, requestId, url }: {
  status: number;
  errorCode: ApiErrorCode;
  message: string;
  details: unknown;
  requestId: string | null;
  url: string;
}): string {
  const issues = isIssueList(details) ? ` (${details.map((issue) => `${issue.parameter}: ${issue.message}`).join('; ')})` : '';
  const request = requestId ? ` [request ${requestId}]` : '';
  return `GET ${url}: ${status} ${errorCode}: ${message}${issues}${request}`;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Builds the error of a non-2xx response from its body, which it consumes. */
export async function errorFromResponse({ response, url, retryAfterSeconds }: {
  response: Response;
  url: string;
  retryAfterSeconds: number | null;
}): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const requestId = response.headers.get('X-Request-Id');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: reported below as an unexpected response.
  }
  const { error, errorCode, details } = (body ?? {}) as { error?: unknown; errorCode?: unknown; details?: unknown };
  if (typeof error === 'string' && typeof errorCode === 'string' && KNOWN_CODES.has(errorCode)) {
    const ErrorClass = errorCode === 'sync_token_expired' ? SyncTokenExpiredError : ApiError;
    return new ErrorClass({ status: response.status, errorCode: errorCode as ErrorCode, message: error, details, requestId, retryAfterSeconds, url });
  }
  return new ApiError({
    status: response.status,
    errorCode: 'unexpected_response',
    message: `the response is not the API's error body (HTTP ${response.status} ${response.statusText})`,
    details: text.slice(0, 500),
    requestId,
    retryAfterSeconds,
    url,
  });
}

/**
 * Whether a failed call may succeed if made again unchanged: a network error,
 * a 429 or a 5xx. A 400, 401, 404 or 410 will not: retrying them only hides
 * the problem (a revoked key, a removed path, an expired token).
 */
export function isPassingFailure(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && (error.status === 429 || error.status >= 500));
}
