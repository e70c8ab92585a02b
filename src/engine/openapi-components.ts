import { ERROR_CODES, type ErrorCode } from './errors.ts';
import type { JsonSchema } from './field-types.ts';
import { UUID_PATTERN } from './field-types.ts';
import { CURSOR_SCHEMA, ERROR_SCHEMA, LIMIT_SCHEMA } from './schema.ts';

/**
 * The parts of the OpenAPI document that every operation shares: parameters,
 * headers, error responses and the error body. Declared once under
 * `components` and referenced, so the document stays readable and small.
 */

/** A parameter's schema without its description, which the parameter itself carries. */
export function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _description, ...rest } = schema;
  return rest;
}

export const componentRef = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): JsonSchema => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The brand the examples show: the demo brand every fresh install has. */
export const EXAMPLE_BRAND = 'northwind';

export const PARAMETERS: JsonSchema = {
  Brand: {
    name: 'brand', in: 'path', required: true,
    description: 'Slug of the brand; the API key must be allowed for it.',
    schema: { type: 'string', minLength: 1 },
    example: EXAMPLE_BRAND,
  },
  Cursor: { name: 'cursor', in: 'query', required: false, description: CURSOR_SCHEMA.description, schema: withoutDescription(CURSOR_SCHEMA) },
  Limit: { name: 'limit', in: 'query', required: false, description: LIMIT_SCHEMA.description, schema: withoutDescription(LIMIT_SCHEMA) },
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
};

/** An example error body for a code, with `details` where that code has them. */
function errorExample(errorCode: ErrorCode, details?: unknown): JsonSchema {
  return {
    summary: errorCode,
    value: { error: ERROR_CODES[errorCode].message, errorCode, ...(details === undefined ? {} : { details }) },
  };
}

function errorResponse(description: string, examples: readonly JsonSchema[], headers: JsonSchema = {}): JsonSchema {
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
  BadRequest: errorResponse('Invalid parameter, unsupported include, or a cursor that is not valid or was made for another brand, collection or filter set.', [
    errorExample('invalid_parameter', [{ parameter: 'limit', message: 'must be <= 100' }]),
    errorExample('unsupported_include'),
    errorExample('invalid_cursor'),
    errorExample('cursor_mismatch'),
  ]),
  Unauthorized: errorResponse('Missing, invalid, expired or out-of-scope API key.', [errorExample('unauthorized')]),
  NotFound: errorResponse('Brand or record not found, or not available to the brand.', [errorExample('not_found')]),
  RateLimited: errorResponse('Rate limit exceeded: the key has used its requests for the current window.', [errorExample('rate_limited')], {
    'Retry-After': componentRef('headers', 'RetryAfter'),
  }),
  InternalError: errorResponse('Unexpected server error; `details.requestId` names the request in the server logs.', [
    errorExample('internal_error', { requestId: '6f1c2b0e-8f9a-4c3d-9e2b-1a7d5c4e3f21' }),
  ]),
};

/** How an operation lists its error responses: by status, referring to the shared ones. */
export const OPERATION_ERRORS: JsonSchema = {
  '400': componentRef('responses', 'BadRequest'),
  '401': componentRef('responses', 'Unauthorized'),
  '404': componentRef('responses', 'NotFound'),
  '429': componentRef('responses', 'RateLimited'),
  '500': componentRef('responses', 'InternalError'),
};

/** The error body, its code limited to the contract's codes. */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  ...ERROR_SCHEMA,
  description: 'The body of every error response.',
  properties: {
    error: { type: 'string', description: 'What went wrong, for people.' },
    errorCode: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Stable code, for programs.' },
    details: { description: 'For `invalid_parameter`: each offending parameter as `{ parameter, message }`. For `internal_error`: `{ requestId }`.' },
  },
};
