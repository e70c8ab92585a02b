import { expect } from 'chai';
import { KEY_REFUSALS, type KeyRefusal } from '../../../src/engine/request/key-refusals.ts';
import { compileSchema } from '../../../src/engine/compile/compile-schema.ts';
import type { JsonSchema } from '../../../src/engine/compile/field-types.ts';
import {
  CACHING_HEADERS,
  componentRef,
  ERROR_BODY_SCHEMA,
  ERROR_RESPONSES,
  HEADERS,
  OPERATION_ERRORS,
  PARAMETERS,
  RATE_LIMIT_HEADERS,
} from '../../../src/engine/openapi/openapi-components.ts';
import { withoutDescription } from '../../../src/engine/openapi/optional-parameter.ts';
import { DATABASE_NOT_READY_MESSAGE, DATABASE_UNAVAILABLE_MESSAGE, ERROR_CODES } from '../../../src/engine/request/api-error.ts';
import { useServer } from '../../support/use-server.ts';

/** The component a `$ref` of this file names, or undefined when it names none. */
function resolve(ref: string): unknown {
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
  const components: Record<string, JsonSchema> = { headers: HEADERS, responses: ERROR_RESPONSES, parameters: PARAMETERS, schemas: { Error: ERROR_BODY_SCHEMA } };
  return kind && name ? components[kind]?.[name] : undefined;
}

/** Every `$ref` in a value, however deep. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' ? [String(inner)] : refsIn(inner)));
}

describe('OpenAPI components', () => {
  it('refers only to components that exist', () => {
    const refs = refsIn([RATE_LIMIT_HEADERS, CACHING_HEADERS, ERROR_RESPONSES, OPERATION_ERRORS]);
    expect(refs).to.include.members(['#/components/headers/RateLimitLimit', '#/components/responses/NotModified', '#/components/schemas/Error']);
    expect(refs.filter((ref) => resolve(ref) === undefined)).to.deep.equal([]);
  });

  it('lists each error response under the status of its codes, with examples that are valid error bodies', () => {
    const validate = compileSchema(ERROR_BODY_SCHEMA);
    for (const [status, ref] of Object.entries(OPERATION_ERRORS)) {
      const response = resolve((ref as { $ref: string }).$ref) as { content?: { 'application/json': { examples: Record<string, { value: unknown }> } } };
      if (status === '304') {
        expect(response.content, 'a 304 has no body').to.equal(undefined);
        continue;
      }
      const examples = Object.values(response.content!['application/json'].examples);
      expect(examples, status).to.not.be.empty;
      for (const { value } of examples) {
        expect(validate(value), JSON.stringify(value)).to.equal(true);
        const { errorCode, error } = value as { errorCode: keyof typeof ERROR_CODES; error: string };
        if (status === '503') {
          // A database that cannot be reached (write-error.ts), or a start without it (require-database.ts):
          // the contract's codes have no other for either.
          expect(errorCode).to.equal('internal_error');
          expect([DATABASE_UNAVAILABLE_MESSAGE, DATABASE_NOT_READY_MESSAGE]).to.include(error);
          continue;
        }
        expect(String(ERROR_CODES[errorCode].status), errorCode).to.equal(status);
        if (status === '401') {
          // One example per reason a key is refused, with that reason's message (key-refusals.ts).
          const { reason } = (value as { details: { reason: KeyRefusal } }).details;
          expect(error).to.equal(KEY_REFUSALS[reason]);
          continue;
        }
        expect(error).to.equal(ERROR_CODES[errorCode].message);
      }
    }
  });

  it('shows a 401 for every reason a key is refused', () => {
    const unauthorized = ERROR_RESPONSES.Unauthorized as { content: { 'application/json': { examples: Record<string, { value: { details: unknown } }> } } };
    const examples = unauthorized.content['application/json'].examples;
    expect(Object.keys(examples)).to.deep.equal(Object.keys(KEY_REFUSALS));
    for (const [reason, { value }] of Object.entries(examples)) expect(value.details).to.deep.equal({ reason });
  });

  it('limits the error body to the contract\'s codes, and to its three keys', () => {
    const validate = compileSchema(ERROR_BODY_SCHEMA);
    expect((ERROR_BODY_SCHEMA.properties as { errorCode: { enum: string[] } }).errorCode.enum).to.deep.equal(Object.keys(ERROR_CODES));
    expect(validate({ error: 'x', errorCode: 'not_found' })).to.equal(true);
    expect(validate({ error: 'x', errorCode: 'teapot' })).to.equal(false);
    expect(validate({ error: 'x', errorCode: 'not_found', extra: 1 })).to.equal(false);
    expect(validate({ errorCode: 'not_found' })).to.equal(false);
  });

  it('sends the rate limit headers with every error a recognised key can get, and Retry-After with a 429', () => {
    const headersOf = (name: string): string[] => Object.keys((ERROR_RESPONSES[name] as { headers: object }).headers);
    for (const name of ['BadRequest', 'NotFound', 'RateLimited', 'NotModified', 'InternalError']) {
      expect(headersOf(name), name).to.include.members(['X-Request-Id', ...Object.keys(RATE_LIMIT_HEADERS)]);
    }
    expect(headersOf('RateLimited')).to.include('Retry-After');
    expect(headersOf('Unauthorized')).to.deep.equal(['X-Request-Id', 'WWW-Authenticate']);
    expect(headersOf('NotModified')).to.include.members(Object.keys(CACHING_HEADERS));
  });

  it('keeps a parameter\'s description on the parameter, not on its schema', () => {
    const schema = { type: 'string', minLength: 1, description: 'said once' };
    expect(withoutDescription(schema)).to.deep.equal({ type: 'string', minLength: 1 });
    expect(schema.description, 'the schema given is left as it was').to.equal('said once');
    for (const [name, parameter] of Object.entries(PARAMETERS)) {
      const { description, schema: parameterSchema } = parameter as { description: unknown; schema: JsonSchema };
      expect(description, name).to.be.a('string').and.not.equal('');
      expect(parameterSchema, name).to.not.have.property('description');
    }
    expect(componentRef('parameters', 'Limit')).to.deep.equal({ $ref: '#/components/parameters/Limit' });
  });
});

describe('rate limit headers in the served document', () => {
  const server = useServer();

  it('are documented on the responses of the OpenAPI document', async () => {
    const doc = (await server.request('/openapi.json', { key: null })).body;
    expect(doc.components.headers).to.include.keys('RateLimitPolicy', 'RateLimit', 'RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'ETag');
    // The earlier draft's fields are kept for a release, marked deprecated.
    for (const name of ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset']) expect(doc.components.headers[name].deprecated, name).to.equal(true);
    expect(doc.components.headers.RateLimit.deprecated).to.equal(undefined);
    const list = doc.paths['/brands/{brand}/carton-sizes'].get;
    expect(list.responses['200'].headers).to.include.keys('RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'ETag', 'Cache-Control');
    expect(list.responses['304']).to.be.an('object');
    expect(doc.components.responses.RateLimited.headers).to.include.keys('Retry-After', 'RateLimit', 'RateLimit-Remaining');
    expect(list.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IfNoneMatch')).to.equal(true);
  });
});
