import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { startTestServer, type TestResponse, type TestServer } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';

const PAGE = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const LIST = '/brands/acme/carton-sizes';
const EXPOSED = 'ETag, Link, Retry-After, X-Request-Id, RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

/** The headers of a browser's preflight for a GET with a key, from `origin`. */
function preflightHeaders(origin: string): Record<string, string> {
  return { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,if-none-match' };
}

/** The `Vary` header as a list of names, in order. */
function varyOf(response: TestResponse): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
}

function expectNoCors(response: TestResponse, label: string): void {
  for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-allow-credentials']) {
    expect(response.headers.get(name), `${label}: ${name}`).to.equal(null);
  }
}

function expectCorsFor(response: TestResponse, allowOrigin: string, label: string): void {
  expect(response.headers.get('access-control-allow-origin'), label).to.equal(allowOrigin);
  expect(response.headers.get('access-control-expose-headers'), label).to.equal(EXPOSED);
  expect(response.headers.get('access-control-allow-credentials'), label).to.equal(null);
}

describe('CORS, with a list of origins (CORS_ORIGINS)', () => {
  let key: string;

  const server = useServer({ corsOrigins: [PAGE, 'http://localhost:5173'], rateLimitPoints: 3 });
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('lets an allowed origin read a 200 and the headers it needs: ETag, RateLimit, X-Request-Id', async () => {
    const response = await server.request(LIST, { key, headers: { Origin: PAGE } });
    expect(response.status, response.text).to.equal(200);
    expectCorsFor(response, PAGE, '200');
    for (const name of ['etag', 'ratelimit', 'ratelimit-policy', 'x-request-id']) expect(response.headers.get(name), name).to.be.a('string');
    // Appended to the keyed route's own Vary, never in its place.
    expect(varyOf(response)).to.have.members(['Origin', 'Authorization', 'Accept-Encoding']);
    const notModified = await server.request(LIST, { key, headers: { Origin: PAGE, 'If-None-Match': response.headers.get('etag')! } });
    expect(notModified.status).to.equal(304);
    expectCorsFor(notModified, PAGE, '304');
  });

  it('keeps its headers on the error bodies the envelope writes: 401, 404, 405 and 500', async () => {
    const answers: [number, string, TestResponse][] = [
      [401, 'unauthorized', await server.request(LIST, { key: null, headers: { Origin: PAGE } })],
      [404, 'not_found', await server.request('/brands/acme/no-such-family', { key, headers: { Origin: PAGE } })],
      [404, 'not_found', await server.request('/brands/no-such-brand/carton-sizes', { key, headers: { Origin: PAGE } })],
      [405, 'method_not_allowed', await server.request(LIST, { key, method: 'OPTIONS', headers: { Origin: PAGE } })],
      [500, 'internal_error', await failing(server, key)],
    ];
    for (const [status, errorCode, response] of answers) {
      expect(response.status, response.text).to.equal(status);
      expectErrorBody(response.body, errorCode);
      expectCorsFor(response, PAGE, `${status} ${errorCode}`);
      expect(varyOf(response), String(status)).to.include('Origin');
    }
  });

  it('keeps its headers on a 429, with Retry-After exposed', async () => {
    let response: TestResponse | null = null;
    for (let i = 0; i < 4; i += 1) response = await server.request(LIST, { key, headers: { Origin: PAGE } });
    expect(response!.status).to.equal(429);
    expectErrorBody(response!.body, 'rate_limited');
    expectCorsFor(response!, PAGE, '429');
    expect(response!.headers.get('retry-after')).to.match(/^\d+$/);
    expect(response!.headers.get('access-control-expose-headers')).to.contain('Retry-After');
  });

  it('gives an origin not listed, or a request without Origin, no CORS header, and varies by Origin all the same', async () => {
    const cases: [string, Record<string, string>][] = [['other origin', { Origin: OTHER }], ['no Origin', {}], ['null origin', { Origin: 'null' }], ['other port', { Origin: `${PAGE}:8443` }]];
    for (const [label, headers] of cases) {
      for (const response of [await server.request(LIST, { key, headers }), await server.request(LIST, { key: null, headers })]) {
        expectNoCors(response, `${label} ${response.status}`);
        expect(varyOf(response), label).to.include('Origin');
      }
    }
    const publicDocument = await server.request('/openapi.json', { headers: { Origin: OTHER } });
    expectNoCors(publicDocument, 'openapi.json');
    expect(varyOf(publicDocument)).to.deep.equal(['Origin', 'Accept-Encoding']);
  });

  it('answers an allowed preflight 204 with the methods, headers and max age, without a key, on any path', async () => {
    for (const path of [LIST, `${LIST}/00000000-0000-4000-8000-000000000000`, '/openapi.json', '/brands/acme/no-such-family', '/nope/']) {
      const response = await server.request(path, { method: 'OPTIONS', headers: preflightHeaders(PAGE) });
      expect(response.status, `${path}: ${response.text}`).to.equal(204);
      expect(response.text).to.equal('');
      expect(response.headers.get('access-control-allow-origin')).to.equal(PAGE);
      expect(response.headers.get('access-control-allow-methods')).to.equal('GET, HEAD');
      expect(response.headers.get('access-control-allow-headers')).to.equal('Authorization, If-None-Match, X-Request-Id');
      expect(response.headers.get('access-control-max-age')).to.equal('7200');
      expect(response.headers.get('access-control-allow-credentials')).to.equal(null);
      expect(varyOf(response)).to.deep.equal(['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers']);
      expect(response.headers.get('x-request-id'), 'the envelope still runs').to.be.a('string');
    }
  });

  it('counts preflights against neither the rate limit nor the failed-authentication limit', async () => {
    // A server of its own: the other tests' 401s would have spent this client's failures.
    const strict = await startTestServer({ corsOrigins: [PAGE], rateLimitPoints: 3, authFailurePoints: 2 });
    try {
      for (let i = 0; i < 10; i += 1) {
        const response = await strict.request(LIST, { method: 'OPTIONS', headers: preflightHeaders(PAGE) });
        expect(response.status).to.equal(204);
        expect(response.headers.get('ratelimit'), 'a preflight is never counted').to.equal(null);
      }
      const read = await strict.request(LIST, { key, headers: { Origin: PAGE } });
      expect(read.status).to.equal(200);
      expect(read.headers.get('ratelimit')).to.match(/^"default";r=2;t=\d+$/);
      // Two failures spend the client's budget: had the preflights counted, these would be 429.
      expect((await strict.request(LIST, { key: null })).status).to.equal(401);
      expect((await strict.request(LIST, { key: null })).status).to.equal(401);
      expect((await strict.request(LIST, { key: null })).status, 'the budget is real').to.equal(429);
    } finally {
      await strict.close();
    }
  });

  it('leaves a preflight from an origin not listed to the 405 or 404 it had, without Access-Control-Allow-Origin', async () => {
    const known = await server.request(LIST, { method: 'OPTIONS', headers: preflightHeaders(OTHER) });
    expect(known.status).to.equal(405);
    expect(known.headers.get('allow')).to.equal('GET, HEAD');
    expectErrorBody(known.body, 'method_not_allowed');
    expectNoCors(known, 'known path');
    const unknown = await server.request('/nope', { method: 'OPTIONS', headers: preflightHeaders(OTHER) });
    expect(unknown.status).to.equal(404);
    expectNoCors(unknown, 'unknown path');
  });
});

describe('CORS for every origin (CORS_ORIGINS=*)', () => {
  let key: string;

  const server = useServer({ corsOrigins: '*' });
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('answers `*` to any origin, with and without Origin, and does not vary by it', async () => {
    for (const headers of [{ Origin: PAGE }, { Origin: OTHER }, {}] as Record<string, string>[]) {
      for (const response of [await server.request(LIST, { key, headers }), await server.request(LIST, { key: null, headers })]) {
        expectCorsFor(response, '*', `${JSON.stringify(headers)} ${response.status}`);
        expect(varyOf(response)).to.deep.equal(['Authorization', 'Accept-Encoding']);
      }
    }
  });

  it('answers any origin\'s preflight with `*`', async () => {
    const response = await server.request(LIST, { method: 'OPTIONS', headers: preflightHeaders(OTHER) });
    expect(response.status).to.equal(204);
    expect(response.headers.get('access-control-allow-origin')).to.equal('*');
    expect(response.headers.get('access-control-allow-methods')).to.equal('GET, HEAD');
  });
});

describe('CORS not configured (the default)', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('sends no CORS header and no Vary: Origin, to any origin', async () => {
    for (const response of [await server.request(LIST, { key, headers: { Origin: PAGE } }), await server.request(LIST, { key: null, headers: { Origin: PAGE } })]) {
      expectNoCors(response, String(response.status));
      expect(varyOf(response)).to.deep.equal(['Authorization', 'Accept-Encoding']);
    }
  });

  it('answers a preflight as any OPTIONS: 405 on a known path, 404 elsewhere', async () => {
    const known = await server.request(LIST, { method: 'OPTIONS', headers: preflightHeaders(PAGE) });
    expect(known.status).to.equal(405);
    expectErrorBody(known.body, 'method_not_allowed');
    expectNoCors(known, '405');
    const unknown = await server.request('/nope', { method: 'OPTIONS', headers: preflightHeaders(PAGE) });
    expect(unknown.status).to.equal(404);
    expectNoCors(unknown, '404');
  });
});

/** A request whose handler throws something unexpected (as envelope.test.ts does): the notes table is renamed while it runs. */
async function failing(server: TestServer, key: string): Promise<TestResponse> {
  const { db } = await testDatabase();
  await db.raw('alter table notes rename to notes_gone');
  try {
    return await server.request('/brands/acme/notes', { key, headers: { Origin: PAGE } });
  } finally {
    await db.raw('alter table notes_gone rename to notes');
  }
}
