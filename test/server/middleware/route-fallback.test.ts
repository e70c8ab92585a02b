import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { resetToBrand } from '../../support/fixtures.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';

describe('paths and methods the API does not have', () => {
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  // `/` and `/api/public/v1` themselves are the front door (front-door.test.ts); `/` here is the base path's `/api/public/v1/`.
  const unknownPaths = [
    '/',
    '/api',
    '/api/public',
    '/api/public/v1/',
    '/api/public/v1/nope',
    '/api/public/v2/brands/acme/carton-sizes',
    '/api/public/v1/brands',
    '/api/public/v1/brands/acme/unknown-family',
    '/api/public/v1/brands/acme/carton-sizes/extra/segments',
    '/api/public/v1/brands/x/unknown-family',
    '/api/public/v1/openapi.yaml',
    '/favicon.ico',
  ];

  it('answers 404 not_found for unknown paths, with and without a key', async () => {
    for (const path of unknownPaths) {
      for (const k of [null, key]) {
        const response = await server.request(path, { key: k });
        expect(response.status, `${path} key=${Boolean(k)}`).to.equal(404);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expectErrorBody(response.body, 'not_found', { details: 'forbidden' });
      }
    }
  });

  it('matches paths exactly: another letter case, a trailing slash or an empty segment is 404 on every kind of route (CONTRACT.md §4)', async () => {
    const id = randomUUID();
    const routes = [
      '/api/public/v1/brands/acme/carton-sizes', `/api/public/v1/brands/acme/carton-sizes/${id}`, '/api/public/v1/brands/acme/carton-sizes/changes',
      '/api/public/v1/brands/acme', '/api/public/v1/openapi.json', '/api/public/v1/docs', '/api/public/v1/docs/getting-started', '/healthz', '/readyz', '/metrics',
      '/api/public/v1',
    ];
    for (const route of routes) {
      const exact = await rawRequest(server.origin, route, { headers: { Authorization: `Bearer ${key}` } });
      expect(exact.status, `${route}: ${exact.text.slice(0, 200)}`).to.be.oneOf([200, 404]);
      const segments = route.split('/');
      const variants = [
        `${route}/`,
        `${route}//`,
        route.toUpperCase(),
        segments.map((segment, i) => (i === 1 ? segment.toUpperCase() : segment)).join('/'),
        // The last segment in another case, where it is a literal (`.../Changes` is a get with a malformed id: 400).
        ...(/\/(changes|acme|[0-9a-f-]{36})$/.test(route) ? [] : [segments.map((segment, i) => (i === segments.length - 1 ? segment.charAt(0).toUpperCase() + segment.slice(1) : segment)).join('/')]),
        `${segments.slice(0, -1).join('/')}//${segments.at(-1)}`,
      ].filter((variant) => variant !== route);
      for (const variant of variants) {
        for (const method of ['GET', 'HEAD', 'POST']) {
          const response = await rawRequest(server.origin, variant, { method, headers: { Authorization: `Bearer ${key}` } });
          expect(response.status, `${method} ${variant}: ${response.text}`).to.equal(404);
          if (method !== 'HEAD') expectErrorBody(response.body, 'not_found', { details: 'forbidden' });
        }
      }
    }
  });

  it('names the path a 404 was likely meant to be: a typo, another letter case, a trailing slash', async () => {
    const id = randomUUID();
    const meant: Record<string, string> = {
      '/api/public/v1/brands/acme/carton-size': '/api/public/v1/brands/acme/carton-sizes',
      [`/api/public/v1/brands/acme/cartn-sizes/${id}`]: `/api/public/v1/brands/acme/carton-sizes/${id}`,
      '/api/public/v1/brands/acme/carton-sizes/changes/': '/api/public/v1/brands/acme/carton-sizes/changes',
      '/api/public/v1/brands/acme/Products': '/api/public/v1/brands/acme/products',
      '/api/public/v1/openapi.jsn': '/api/public/v1/openapi.json',
      '/api/public/V1/docs': '/api/public/v1/docs',
      '/healthz/': '/healthz',
    };
    for (const [path, suggestion] of Object.entries(meant)) {
      const response = await server.request(`${server.origin}${path}`, { key });
      expect(response.status, path).to.equal(404);
      expectErrorBody(response.body, 'not_found', { details: 'forbidden' });
      expect(response.body.error, path).to.equal(`No such path in this API (did you mean '${suggestion}'?).`);
    }
    for (const path of ['/favicon.ico', '/api/public/v1/brands/acme/unknown-family']) {
      expect((await server.request(`${server.origin}${path}`, { key })).body.error, path).to.equal('No such path in this API.');
    }
  });

  it('answers 405 method_not_allowed with Allow: GET, HEAD for other methods on a known path', async () => {
    const known = [
      '/brands/acme/carton-sizes',
      `/brands/acme/carton-sizes/${randomUUID()}`,
      '/brands/acme',
      '/brands/no-such-brand/notes',
      '/openapi.json',
    ];
    for (const path of known) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        for (const k of [null, key]) {
          const response = await server.request(path, { key: k, method });
          expect(response.status, `${method} ${path}`).to.equal(405);
          expect(response.headers.get('allow'), `${method} ${path}`).to.equal('GET, HEAD');
          expectErrorBody(response.body, 'method_not_allowed', { details: 'forbidden' });
        }
      }
    }
  });

  it('answers 404, not 405, for other methods on an unknown path', async () => {
    for (const path of ['/nope', '/brands/acme/unknown-family', '/']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const response = await server.request(path, { key, method });
        expect(response.status, `${method} ${path}`).to.equal(404);
        expect(response.headers.get('allow')).to.equal(null);
        expectErrorBody(response.body, 'not_found');
      }
    }
  });

  it('does not let a non-GET method change anything: the record list is the same after a POST', async () => {
    const first = await server.request('/brands/acme/carton-sizes', { key });
    const post = await server.request('/brands/acme/carton-sizes', { key, method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(post.status).to.equal(405);
    const second = await server.request('/brands/acme/carton-sizes', { key });
    expect(second.body).to.deep.equal(first.body);
  });

  it('serves HEAD on a known path like GET, without a body', async () => {
    const response = await server.request('/brands/acme/carton-sizes', { key, method: 'HEAD' });
    expect(response.status).to.equal(200);
    expect(response.text).to.equal('');
    const unauthorized = await server.request('/brands/acme/carton-sizes', { method: 'HEAD' });
    expect(unauthorized.status).to.equal(401);
  });
});
