import { expect } from 'chai';
import { createBrand, resetToBrand } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/** RateLimit-Limit, -Remaining, -Reset and -Policy on every response a key gets, 429 included. */
describe('rate limit headers', () => {
  let server: TestServer;
  let key: string;

  before(async () => {
    server = await startTestServer({ rateLimitPoints: 4, rateLimitWindowSeconds: 30 });
  });
  after(() => server.close());
  beforeEach(async () => {
    ({ key } = await resetToBrand());
    await createBrand('globex');
  });

  function limits(headers: Headers): { limit: string | null; remaining: string | null; reset: number; policy: string | null } {
    return {
      limit: headers.get('ratelimit-limit'),
      remaining: headers.get('ratelimit-remaining'),
      reset: Number(headers.get('ratelimit-reset')),
      policy: headers.get('ratelimit-policy'),
    };
  }

  it('counts down on 200, 400, 404 and 401 for another brand, then shows 0 on the 429', async () => {
    const responses = [
      await server.request('/brands/acme/carton-sizes', { key }),
      await server.request('/brands/acme/carton-sizes?limit=0', { key }),
      await server.request('/brands/nobody/carton-sizes', { key }),
      await server.request('/brands/globex/carton-sizes', { key }),
      await server.request('/brands/acme/carton-sizes', { key }),
    ];
    expect(responses.map((r) => r.status)).to.deep.equal([200, 400, 404, 401, 429]);
    responses.forEach((response, i) => {
      const seen = limits(response.headers);
      expect(seen.limit, `response ${i}`).to.equal('4');
      expect(seen.remaining, `response ${i}`).to.equal(String(Math.max(0, 3 - i)));
      expect(seen.reset, `response ${i}`).to.be.within(0, 30);
      expect(seen.policy, `response ${i}`).to.equal('4;w=30');
    });
    expect(responses[4]!.headers.get('retry-after')).to.equal(String(limits(responses[4]!.headers).reset));
  });

  it('are absent when no key was recognised (nothing was counted)', async () => {
    const response = await server.request('/brands/acme/carton-sizes', { key: null });
    expect(response.status).to.equal(401);
    expect(response.headers.get('ratelimit-limit')).to.equal(null);
  });

  it('are documented on the responses of the OpenAPI document', async () => {
    const doc = (await server.request('/openapi.json', { key: null })).body;
    expect(doc.components.headers).to.include.keys('RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'RateLimitPolicy', 'ETag');
    const list = doc.paths['/brands/{brand}/carton-sizes'].get;
    expect(list.responses['200'].headers).to.include.keys('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'ETag', 'Cache-Control');
    expect(list.responses['304']).to.be.an('object');
    expect(doc.components.responses.RateLimited.headers).to.include.keys('Retry-After', 'RateLimit-Remaining');
    expect(list.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IfNoneMatch')).to.equal(true);
  });
});
