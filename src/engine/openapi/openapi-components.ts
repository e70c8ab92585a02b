import { DATABASE_NOT_READY_MESSAGE, DATABASE_UNAVAILABLE_MESSAGE, ERROR_CODES, type ErrorCode } from '../request/api-error.ts';
import { KEY_REFUSALS } from '../request/key-refusals.ts';
import type { JsonSchema } from '../compile/field-types.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import { CURSOR_SCHEMA, ERROR_SCHEMA, LIMIT_SCHEMA } from '../compile/schemas.ts';
import { optionalParameter } from './optional-parameter.ts';

/**
 * The parts of the OpenAPI document that every operation shares: parameters,
 * headers, error responses and the error body. Declared once under
 * `components` and referenced, so the document stays readable and small.
 */

export const componentRef = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): JsonSchema => ({
  $ref: `#/components/${kind}/${name}`,
});

/** A reference to a schema under `components`, such as a record's. */
export const schemaRef = (name: string): JsonSchema => componentRef('schemas', name);

/** The brand the examples show: the demo brand every fresh install has. */
export const EXAMPLE_BRAND = 'northwind';

export const PARAMETERS: JsonSchema = {
  Brand: {
    name: 'brand', in: 'path', required: true,
    description: 'Slug of the brand; the API key must be allowed for it.',
    schema: { type: 'string', minLength: 1 },
    example: EXAMPLE_BRAND,
  },
  Cursor: optionalParameter({ name: 'cursor', schema: CURSOR_SCHEMA }),
  Limit: optionalParameter({ name: 'limit', schema: LIMIT_SCHEMA }),
  IfNoneMatch: {
    name: 'If-None-Match', in: 'header', required: false,
    description: 'The `ETag` of a response the client holds: when the response would be the same, the answer is 304 with no body, which does not count against the rate limit.',
    schema: { type: 'string' },
  },
};

/** The id in the path of a get; each operation adds its family's example id, so it is not shared. */
export const ID_PARAMETER: JsonSchema = {
  name: 'id', in: 'path', required: true,
  description: 'Id of the record (a lower-case UUID).',
  schema: { type: 'string', pattern: UUID_PATTERN },
};

export const HEADERS: JsonSchema = {
  RequestId: {
    description: 'Id of the request, as logged by the server: quote it when reporting a problem. A plain id the client sends in `X-Request-Id` is kept.',
    schema: { type: 'string' },
  },
  Link: {
    description: 'On a page that has a next page: the origin-relative URL of that page with `rel="next"`, keeping the filters, includes and page size. Absent on the last page.',
    schema: { type: 'string' },
    example: `</api/public/v1/brands/${EXAMPLE_BRAND}/products?limit=25&cursor=...>; rel="next"`,
  },
  RetryAfter: {
    description: 'Whole seconds to wait before retrying (at least 0).',
    schema: { type: 'integer', minimum: 0 },
  },
  ETag: {
    description: 'Strong validator of the body: send it back in `If-None-Match` to get 304 when nothing changed. A compressed body\'s tag ends with its coding inside the quotes (`"<tag>-br"`, `"<tag>-gzip"`); any of them gets the 304.',
    schema: { type: 'string' },
  },
  CacheControl: {
    description: '`private, no-cache` on a 200 or 304: only the client may keep the response, and it revalidates it with `If-None-Match` before reuse. Errors are `no-store`. Responses vary by `Authorization`.',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'The quota of the key, as a structured field of the IETF RateLimit headers draft: `"default";q=<requests>;w=<window in seconds>`.',
    schema: { type: 'string', pattern: '^"default";q=\\d+;w=\\d+$' },
    example: '"default";q=1000;w=60',
  },
  RateLimit: {
    description: 'What the key has left, as a structured field of the IETF RateLimit headers draft: `"default";r=<requests remaining>;t=<seconds until the window resets>`.',
    schema: { type: 'string', pattern: '^"default";r=\\d+;t=\\d+$' },
    example: '"default";r=997;t=42',
  },
  RateLimitLimit: { description: 'Deprecated (an earlier draft; use `RateLimit-Policy`): requests the key may make in the window.', deprecated: true, schema: { type: 'integer', minimum: 0 } },
  RateLimitRemaining: { description: 'Deprecated (an earlier draft; use `RateLimit`): requests the key has left in the current window.', deprecated: true, schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Deprecated (an earlier draft; use `RateLimit`): whole seconds until the window resets.', deprecated: true, schema: { type: 'integer', minimum: 0 } },
};

/** The rate limit headers on every response to a recognised key. */
export const RATE_LIMIT_HEADERS: JsonSchema = {
  'RateLimit-Policy': componentRef('headers', 'RateLimitPolicy'),
  RateLimit: componentRef('headers', 'RateLimit'),
  'RateLimit-Limit': componentRef('headers', 'RateLimitLimit'),
  'RateLimit-Remaining': componentRef('headers', 'RateLimitRemaining'),
  'RateLimit-Reset': componentRef('headers', 'RateLimitReset'),
};

/** Headers of a 200 and a 304 of a keyed route. */
export const CACHING_HEADERS: JsonSchema = {
  ETag: componentRef('headers', 'ETag'),
  'Cache-Control': componentRef('headers', 'CacheControl'),
};

/** An example error body for a code, with `details` where that code has them. */
function errorExample(errorCode: ErrorCode, details?: unknown): JsonSchema {
  return {
    summary: errorCode,
    value: { error: ERROR_CODES[errorCode].message, errorCode, ...(details === undefined ? {} : { details }) },
  };
}

/** An error response: its examples by code, and the rate limit headers unless it says which headers it sends. */
function errorResponse({ description, examples, headers = RATE_LIMIT_HEADERS }: {
  description: string;
  examples: readonly JsonSchema[];
  headers?: JsonSchema;
}): JsonSchema {
  return {
    description,
    headers: { 'X-Request-Id': componentRef('headers', 'RequestId'), ...headers },
    content: {
      'application/json': {
        schema: componentRef('schemas', 'Error'),
        examples: Object.fromEntries(examples.map((example) => [String(example.summary), example])),
      },
    },
  };
}

/** Every error status the spec lists, by the name operations refer to it with. */
export const ERROR_RESPONSES: JsonSchema = {
  BadRequest: errorResponse({
    description: 'Invalid parameter, unsupported include, or a cursor that is not valid or was made for another brand, collection, filter set or sort.',
    examples: [
      errorExample('invalid_parameter', [{ parameter: 'limit', message: 'must be <= 100' }]),
      errorExample('unsupported_include'),
      errorExample('invalid_cursor'),
      errorExample('cursor_mismatch'),
    ],
  }),
  // No key was recognised, or the key may not read the brand (only then are rate limit headers sent).
  Unauthorized: errorResponse({
    description: 'Missing, malformed, unknown or revoked, expired or out-of-scope API key: `details.reason` says which.',
    examples: Object.entries(KEY_REFUSALS).map(([reason, message]) => ({
      summary: reason,
      value: { error: message, errorCode: 'unauthorized', details: { reason } },
    })),
    headers: {
      'WWW-Authenticate': {
        description: '`Bearer` when no key was sent, `Bearer error="invalid_token"` when the key sent is not a live one; none for a live key the brand refuses.',
        schema: { type: 'string' },
      },
    },
  }),
  NotFound: errorResponse({ description: 'Brand or record not found, or not available to the brand.', examples: [errorExample('not_found')] }),
  RateLimited: errorResponse({
    description: 'Rate limit exceeded: the key has used its requests for the current window.',
    examples: [errorExample('rate_limited')],
    headers: { 'Retry-After': componentRef('headers', 'RetryAfter'), ...RATE_LIMIT_HEADERS },
  }),
  Gone: errorResponse({
    description: 'The sync token is older than the retention period (SYNC_RETENTION_DAYS), so deletions it needs may be gone, or older than a TRUNCATE '
      + 'that removed rows of the brand from the family\'s table (or a table its records read), which leaves no list of what it removed. '
      + 'Clear the copy and start a full sync without a token.',
    examples: [errorExample('sync_token_expired')],
  }),
  NotModified: {
    description: 'The response would be the one whose `ETag` the client sent in `If-None-Match`: no body, and no request counted.',
    headers: { 'X-Request-Id': componentRef('headers', 'RequestId'), ...CACHING_HEADERS, ...RATE_LIMIT_HEADERS },
  },
  InternalError: errorResponse({
    description: 'Unexpected server error; `details.requestId` names the request in the server logs.',
    examples: [errorExample('internal_error', { requestId: '6f1c2b0e-8f9a-4c3d-9e2b-1a7d5c4e3f21' })],
  }),
  // Sent before the key is checked: no rate limit headers.
  ServiceUnavailable: errorResponse({
    description: 'The service cannot reach its database: it has started but cannot serve it yet (unreachable, not created or not migrated yet), '
      + 'or the database is down, failing over or not answering. Come back after `Retry-After` seconds; nothing the client holds '
      + '(keys, cursors, sync tokens) is lost.',
    examples: [{
      summary: 'internal_error',
      value: { error: DATABASE_UNAVAILABLE_MESSAGE, errorCode: 'internal_error' },
    }, {
      summary: 'internal_error (starting)',
      value: { error: DATABASE_NOT_READY_MESSAGE, errorCode: 'internal_error' },
    }],
    headers: { 'Retry-After': componentRef('headers', 'RetryAfter') },
  }),
};

/** How an operation lists its other responses (304 and the errors): by status, referring to the shared ones. */
export const OPERATION_ERRORS: JsonSchema = {
  '304': componentRef('responses', 'NotModified'),
  '400': componentRef('responses', 'BadRequest'),
  '401': componentRef('responses', 'Unauthorized'),
  '404': componentRef('responses', 'NotFound'),
  '429': componentRef('responses', 'RateLimited'),
  '500': componentRef('responses', 'InternalError'),
  '503': componentRef('responses', 'ServiceUnavailable'),
};

/** The error body, its code limited to the contract's codes. */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  ...ERROR_SCHEMA,
  description: 'The body of every error response.',
  properties: {
    error: { type: 'string', description: 'What went wrong, for people.' },
    errorCode: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable code, for programs.' },
    details: { description: `For \`invalid_parameter\`: each offending parameter as \`{ parameter, message }\`. For \`unauthorized\`: \`{ reason }\`, one of ${Object.keys(KEY_REFUSALS).map((reason) => `\`${reason}\``).join(', ')}. For \`internal_error\`: \`{ requestId }\`.` },
  },
};
