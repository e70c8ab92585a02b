import { expect } from 'chai';
import { createBrand, createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { rawRequest } from '../../support/raw-request.ts';

describe('operations: probes, metrics and security headers', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  beforeEach(async () => {
    ({ key } = await resetToBrand());
  });

  it('/healthz says the process is alive, without a key', async () => {
    const response = await server.request(`${server.origin}/healthz`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ok' });
    expect(response.headers.get('cache-control')).to.equal('no-store');
  });

  it('/readyz checks the database (and reports Redis), without a key', async () => {
    const response = await server.request(`${server.origin}/readyz`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ok', database: 'ready', redis: process.env.REDIS_URL ? 'ready' : 'none' });
  });

  it('/metrics exposes Prometheus text: requests by route pattern and status, durations, process metrics', async () => {
    await server.request('/brands/acme/carton-sizes', { key });
    await server.request('/brands/acme/carton-sizes', { key: null });
    const response = await server.request(`${server.origin}/metrics`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    const text = response.text;
    expect(text).to.match(/bcat_http_requests_total\{method="GET",route="\/api\/public\/v1\/brands\/:brand\/carton-sizes",status="200"\} 1/);
    expect(text).to.match(/bcat_http_requests_total\{method="GET",route="\/api\/public\/v1\/brands\/:brand\/carton-sizes",status="401"\} 1/);
    expect(text).to.contain('bcat_http_request_duration_seconds_bucket');
    expect(text).to.contain('bcat_process_resident_memory_bytes');
    // Never a brand slug or a key in a label.
    expect(text).not.to.contain('acme');
    expect(text).not.to.contain('bcat_sk_');
  });

  it('sets security headers on API answers, errors and unknown paths', async () => {
    for (const response of [
      await server.request('/brands/acme/carton-sizes', { key }),
      await server.request('/brands/acme/carton-sizes', { key: null }),
      await server.request('/nowhere', { key: null }),
    ]) {
      expect(response.headers.get('x-content-type-options'), String(response.status)).to.equal('nosniff');
      expect(response.headers.get('x-frame-options')).to.equal('DENY');
      expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(response.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'");
    }
    // The docs pages keep their own policy.
    const docs = await server.request('/docs', { key: null });
    expect(docs.headers.get('content-security-policy')).to.contain("default-src 'self'");
  });
});

describe('failed authentication limit per client', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ authFailurePoints: 3 });
  });
  after(() => server.close());
  beforeEach(async () => {
    await resetDatabase((await testDatabase()).db);
    await createBrand('acme');
  });

  it('refuses a client with 429 and Retry-After once it has failed too often, even with a valid key', async () => {
    const { key } = await createTestKey({ brands: ['acme'] });
    const wrong = `bcat_sk_${'x'.repeat(46)}`;
    for (let i = 0; i < 3; i += 1) {
      expect((await server.request('/brands/acme/carton-sizes', { key: wrong })).status, `failure ${i + 1}`).to.equal(401);
    }
    const blocked = await server.request('/brands/acme/carton-sizes', { key: wrong });
    expect(blocked.status).to.equal(429);
    expectErrorBody(blocked.body, 'rate_limited', { details: 'forbidden' });
    expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
    // Guessing gets no answers while blocked: a valid key is refused too.
    expect((await server.request('/brands/acme/carton-sizes', { key })).status).to.equal(429);
  });

  it('counts per client: with TRUST_PROXY, X-Forwarded-For names the client', async () => {
    const proxied = await startTestServer({ authFailurePoints: 2, trustProxy: true });
    try {
      const { key } = await createTestKey({ brands: ['acme'] });
      const as = (ip: string, token: string | null) => rawRequest(proxied.origin, '/api/public/v1/brands/acme/carton-sizes', {
        headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      });
      expect((await as('203.0.113.7', null)).status).to.equal(401);
      expect((await as('203.0.113.7', null)).status).to.equal(401);
      expect((await as('203.0.113.7', key)).status).to.equal(429);
      expect((await as('198.51.100.9', key)).status, 'another client is not blocked').to.equal(200);
      // A proxy that appends keeps what the client sent: only the last address, the one it added, counts.
      expect((await as('192.0.2.1, 203.0.113.7', key)).status, 'a forged first address does not escape the block').to.equal(429);
      expect((await as('203.0.113.7, 198.51.100.9', key)).status, 'the last address is the client').to.equal(200);
    } finally {
      await proxied.close();
    }
  });
});
