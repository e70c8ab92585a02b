import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { DATABASE_RETRY_AFTER_SECONDS, writeError } from '../../../src/server/middleware/write-error.ts';
import type { Context } from 'koa';

const ERROR_CODES = [
  'invalid_parameter',
  'unsupported_include',
  'invalid_cursor',
  'cursor_mismatch',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'internal_error',
];

describe('error bodies', () => {
  let acme: { id: string; slug: string };
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ brand: acme, key } = await resetToBrand());
    await createBrand('globex');
  });

  it('is exactly { error, errorCode, details? } for every kind of error, with the status of its code', async () => {
    const cases: { path: string; key?: string | null; method?: string; status: number; code: string }[] = [
      { path: '/brands/acme/carton-sizes', key: null, status: 401, code: 'unauthorized' },
      { path: '/brands/globex/carton-sizes', key, status: 401, code: 'unauthorized' },
      { path: '/brands/nope/carton-sizes', key, status: 404, code: 'not_found' },
      { path: `/brands/acme/carton-sizes/${randomUUID()}`, key, status: 404, code: 'not_found' },
      { path: '/nope', key, status: 404, code: 'not_found' },
      { path: '/brands/acme/carton-sizes?limit=101', key, status: 400, code: 'invalid_parameter' },
      { path: '/brands/acme/carton-sizes?limit=abc', key, status: 400, code: 'invalid_parameter' },
      { path: '/brands/acme/carton-sizes?bogus=1', key, status: 400, code: 'invalid_parameter' },
      { path: '/brands/acme/carton-sizes?limit=1&limit=2', key, status: 400, code: 'invalid_parameter' },
      { path: '/brands/acme/carton-sizes?include=anything', key, status: 400, code: 'unsupported_include' },
      { path: '/brands/acme/carton-sizes?cursor=bm90.c2lnbmVk', key, status: 400, code: 'invalid_cursor' },
      { path: '/brands/acme/carton-sizes', key, method: 'POST', status: 405, code: 'method_not_allowed' },
    ];
    for (const c of cases) {
      const response = await server.request(c.path, { key: c.key ?? null, method: c.method ?? 'GET' });
      const label = `${c.method ?? 'GET'} ${c.path}`;
      expect(response.status, label).to.equal(c.status);
      expect(response.headers.get('content-type'), label).to.match(/^application\/json/);
      expectErrorBody(response.body, c.code);
      expect(ERROR_CODES).to.include(response.body.errorCode);
    }
  });

  it('lists each offending parameter in details of a 400 invalid_parameter', async () => {
    const response = await server.request('/brands/acme/carton-sizes?limit=0&bogus=1', { key });
    expect(response.status).to.equal(400);
    expectErrorBody(response.body, 'invalid_parameter', { details: 'required' });
    const text = JSON.stringify(response.body.details);
    expect(text).to.contain('limit');
    expect(text).to.contain('bogus');
  });

  it('lists a malformed id together with the offending query parameters', async () => {
    const response = await server.request('/brands/acme/carton-sizes/BAD?foo=1', { key });
    expect(response.status).to.equal(400);
    expect(response.body.details.map((d: { parameter: string }) => d.parameter)).to.deep.equal(['id', 'foo']);
  });

  it('answers a brand slug with a NUL character as an unknown brand, after the key check', async () => {
    for (const path of ['/api/public/v1/brands/%00/carton-sizes', '/api/public/v1/brands/ac%00me', '/api/public/v1/brands/acme%00/carton-sizes/00000000-0000-4000-8000-000000000000']) {
      const withKey = await rawRequest(server.origin, path, { headers: { Authorization: `Bearer ${key}` } });
      expect(withKey.status, path).to.equal(404);
      expectErrorBody(withKey.body, 'not_found');
      const withoutKey = await rawRequest(server.origin, path, {});
      expect(withoutKey.status, path).to.equal(401);
    }
  });

  it('answers a cursor that does not decode with 400 invalid_cursor, whatever its shape (CONTRACT.md §4)', async () => {
    for (const cursor of ['bm90.c2lnbmVk', 'not-a-cursor', 'abc', '!!!']) {
      const response = await server.request(`/brands/acme/carton-sizes?cursor=${encodeURIComponent(cursor)}`, { key });
      expect(response.status, cursor).to.equal(400);
      expect(response.body.errorCode, `cursor=${cursor}`).to.equal('invalid_cursor');
    }
  });

  it('answers a path with malformed percent-encoding with 400 or 404 and a valid error body, never 500', async () => {
    const paths = [
      '/api/public/v1/brands/%E0%A4%A/carton-sizes',
      '/api/public/v1/brands/acme/carton-sizes/%E0%A4%A',
      '/api/public/v1/brands/%/carton-sizes',
      '/api/public/v1/brands/acme/%ZZ',
      '/api/public/v1/brands/%E0%A4%A',
      '/api/public/v1/%E0%A4%A',
    ];
    for (const path of paths) {
      const variants: Record<string, string>[] = [{}, { Authorization: `Bearer ${key}` }];
      for (const headers of variants) {
        const response = await rawRequest(server.origin, path, { headers });
        // Without a key the key check comes first (CONTRACT.md §4), so 401 is right too.
        const allowed = 'Authorization' in headers ? [400, 404] : [400, 401, 404];
        expect(allowed, `${path} ${JSON.stringify(headers)}: ${response.status} ${response.text}`).to.include(response.status);
        expectErrorBody(response.body, ({ 400: 'invalid_parameter', 401: 'unauthorized', 404: 'not_found' } as Record<number, string>)[response.status]!);
      }
    }
  });

  describe('an unexpected failure', () => {
    async function withNotesTableGone<T>(body: () => Promise<T>): Promise<T> {
      const { db: knex } = await testDatabase();
      await knex.raw('alter table notes rename to notes_gone');
      try {
        return await body();
      } finally {
        await knex.raw('alter table notes_gone rename to notes');
      }
    }

    it('is a 500 internal_error with no stack, SQL or table name, and the request id in details', async () => {
      await insert('notes', acme.id, [{ entityType: 'product', entityId: randomUUID(), content: { text: 'hi' } }]);
      const response = await withNotesTableGone(() => server.request('/brands/acme/notes', { key }));
      expect(response.status).to.equal(500);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expectErrorBody(response.body, 'internal_error', { details: 'required' });
      expect(response.body.details).to.deep.equal({ requestId: response.headers.get('x-request-id') });
      expect(response.body.details.requestId).to.be.a('string').and.not.equal('');
      for (const leak of ['notes', 'select', 'relation', 'does not exist', 'stack', ' at ', '.ts', 'node_modules', 'brand_id', 'Error:']) {
        expect(response.text.toLowerCase(), `500 body leaks "${leak}"`).to.not.contain(leak.toLowerCase());
      }
      // And the table works again afterwards.
      const again = await server.request('/brands/acme/notes', { key });
      expect(again.status).to.equal(200);
      expect(again.body.totalItems).to.equal(1);
    });

    it('is logged at level error (50) with its request id, on list and single-record routes', async () => {
      for (const path of ['/brands/acme/notes', `/brands/acme/notes/${randomUUID()}`]) {
        const requestId = `trace-${randomUUID()}`;
        const response = await withNotesTableGone(() => server.request(path, { key, headers: { 'X-Request-Id': requestId } }));
        expect(response.status, path).to.equal(500);
        expect(response.headers.get('x-request-id')).to.equal(requestId);
        expect(response.body.details).to.deep.equal({ requestId });
        const errors = server.logs.filter((line) => line.level === 50 && line.requestId === requestId);
        expect(errors, `error log line for ${requestId}`).to.have.length(1);
        // The detail stays in the log, for the operator.
        expect(JSON.stringify(errors[0])).to.contain('notes');
      }
    });
  });

  describe('a database that cannot be reached (CONTRACT.md §4)', () => {
    /** Just what writeError touches of a Koa context. */
    function fakeContext(): { ctx: Context; headers: Record<string, string> } {
      const headers: Record<string, string> = {};
      const ctx = { state: { requestId: 'req-1' }, method: 'GET', path: '/api/public/v1/brands/acme/carton-sizes', status: 200, body: null, set: (name: string, value: string) => { headers[name] = value; } };
      return { ctx: ctx as unknown as Context, headers };
    }
    const failures: Record<string, Error> = {
      refused: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      'shut down': Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      'connection lost': new Error('Connection terminated unexpectedly'),
      'no pooled connection in time': Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }),
      'no answer in time': new Error('Query read timeout'),
    };
    for (const [what, error] of Object.entries(failures)) {
      it(`is a 503 internal_error with Retry-After and no details, logged as a warning, for a connection failure (${what})`, () => {
        const { logger, lines } = collectingLogger();
        const { ctx, headers } = fakeContext();
        writeError({ ctx, error, logger });
        expect(ctx.status).to.equal(503);
        expect(headers).to.deep.equal({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
        expectErrorBody(ctx.body, 'internal_error', { details: 'forbidden' });
        expect(lines.map((line) => [line.level, line.msg, line.requestId, line.reason])).to.deep.equal([[40, 'database unavailable', 'req-1', error.message]]);
      });
    }

    it('leaves a statement that failed on a working connection a logged 500 (a statement timeout, say)', () => {
      const { logger, lines } = collectingLogger();
      const { ctx, headers } = fakeContext();
      writeError({ ctx, error: Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), logger });
      expect(ctx.status).to.equal(500);
      expect(headers).to.deep.equal({});
      expectErrorBody(ctx.body, 'internal_error', { details: 'required' });
      expect(lines.map((line) => [line.level, line.msg])).to.deep.equal([[50, 'unexpected error']]);
    });
  });
});
