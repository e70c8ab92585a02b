import { expect } from 'chai';
import { createBrand, createTestKey, insert, resetToBrand, resetToBrands } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { redisKeys, redisNumber, waitUntilCountingInRedis } from '../../support/local-redis.ts';
import { sleep } from '../../support/wait-for.ts';

const backends: { name: string; redisUrl: string | null; backend: 'memory' | 'redis' }[] = [
  { name: 'in-process counters', redisUrl: null, backend: 'memory' },
  ...(process.env.REDIS_URL ? [{ name: 'Redis (REDIS_URL)', redisUrl: process.env.REDIS_URL, backend: 'redis' as const }] : []),
];

for (const { name, redisUrl, backend } of backends) {
  describe(`rate limits per key, on ${name}`, () => {
    const server = useServer({ rateLimitPoints: 3, rateLimitWindowSeconds: 60, redisUrl });
    let acme: { id: string; slug: string };

    before(async () => {
      expect(server.limiter.backend).to.equal(backend);
      if (redisUrl) await waitUntilCountingInRedis(server.limiter, redisUrl);
    });
    beforeEach(async () => {
      [acme] = await resetToBrands('acme', 'globex');
    });

    function expectRateLimited(response: { status: number; headers: Headers; body: unknown }): void {
      expect(response.status).to.equal(429);
      expectErrorBody(response.body, 'rate_limited', { details: 'forbidden' });
      const retryAfter = response.headers.get('retry-after');
      expect(retryAfter, 'Retry-After').to.match(/^\d+$/);
      expect(Number(retryAfter)).to.be.at.least(0).and.at.most(60);
    }

    it('answers the 4th request of a key in the window with 429 rate_limited and Retry-After', async () => {
      const { key, id } = await createTestKey({ brands: ['acme'] });
      for (let i = 1; i <= 3; i++) {
        const response = await server.request('/brands/acme/carton-sizes', { key });
        expect(response.status, `request ${i}`).to.equal(200);
      }
      const fourth = await server.request('/brands/acme/carton-sizes', { key });
      expectRateLimited(fourth);
      // A rate-limited request still gets its request id.
      expect(fourth.headers.get('x-request-id')).to.be.a('string');
      expectRateLimited(await server.request('/brands/acme/carton-sizes', { key }));
      if (redisUrl) {
        // The count is kept in Redis, by key id (never by the key itself).
        const stored = await redisKeys(redisUrl, `*:${id}`);
        expect(stored).to.have.length(1);
        expect(await redisNumber(redisUrl, stored[0]!)).to.be.at.least(3);
        expect(await redisKeys(redisUrl, `*${key}*`)).to.deep.equal([]);
      }
    });

    it('leaves another key unaffected', async () => {
      const first = await createTestKey({ brands: ['acme'] });
      const second = await createTestKey({ brands: ['acme'] });
      for (let i = 0; i < 3; i++) expect((await server.request('/brands/acme/carton-sizes', { key: first.key })).status).to.equal(200);
      expectRateLimited(await server.request('/brands/acme/carton-sizes', { key: first.key }));
      for (let i = 0; i < 3; i++) expect((await server.request('/brands/acme/carton-sizes', { key: second.key })).status).to.equal(200);
      expectRateLimited(await server.request('/brands/acme/carton-sizes', { key: second.key }));
    });

    it('counts per key across brands and routes', async () => {
      const [carton] = await insert('carton-sizes', acme.id, [{ name: 'Small' }]);
      const { key } = await createTestKey({ global: true });
      expect((await server.request('/brands/acme/carton-sizes', { key })).status).to.equal(200);
      expect((await server.request('/brands/globex/notes', { key })).status).to.equal(200);
      expect((await server.request(`/brands/acme/carton-sizes/${carton!.id}`, { key })).status).to.equal(200);
      for (const path of ['/brands/globex', '/brands/globex/carton-sizes', '/brands/acme/notes', `/brands/acme/carton-sizes/${carton!.id}`]) {
        expectRateLimited(await server.request(path, { key }));
      }
    });

    it('does not count requests without a valid key against anyone', async () => {
      const { key } = await createTestKey({ brands: ['acme'] });
      for (let i = 0; i < 10; i++) expect((await server.request('/brands/acme/carton-sizes')).status).to.equal(401);
      for (let i = 0; i < 3; i++) expect((await server.request('/brands/acme/carton-sizes', { key })).status).to.equal(200);
      expectRateLimited(await server.request('/brands/acme/carton-sizes', { key }));
    });

    it('serves the OpenAPI document without counting it', async () => {
      for (let i = 0; i < 6; i++) expect((await server.request('/openapi.json')).status).to.equal(200);
    });
  });

  describe(`rate limit window, on ${name}`, () => {
    const server = useServer({ rateLimitPoints: 2, rateLimitWindowSeconds: 1, redisUrl });

    before(async () => {
      if (redisUrl) await waitUntilCountingInRedis(server.limiter, redisUrl);
    });
    beforeEach(async () => {
      await resetToBrands('acme');
    });

    it('frees the key again once Retry-After has passed', async () => {
      const { key } = await createTestKey({ brands: ['acme'] });
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
      const limited = await server.request('/brands/acme', { key });
      expect(limited.status).to.equal(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).to.be.within(0, 1);
      await sleep(retryAfter * 1000 + 200);
      expect((await server.request('/brands/acme', { key })).status).to.equal(200);
    });
  });
}

/**
 * RateLimit-Policy and RateLimit (the draft's structured fields), and the
 * earlier draft's RateLimit-Limit, -Remaining and -Reset, on every response a
 * key gets, 429 included.
 */
describe('rate limit headers', () => {
  let key: string;

  const server = useServer({ rateLimitPoints: 4, rateLimitWindowSeconds: 30 });
  beforeEach(async () => {
    ({ key } = await resetToBrand());
    await createBrand('globex');
  });

  function limits(headers: Headers): { limit: string | null; remaining: string | null; reset: number; policy: string | null; current: string | null } {
    return {
      limit: headers.get('ratelimit-limit'),
      remaining: headers.get('ratelimit-remaining'),
      reset: Number(headers.get('ratelimit-reset')),
      policy: headers.get('ratelimit-policy'),
      current: headers.get('ratelimit'),
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
      expect(seen.policy, `response ${i}`).to.equal('"default";q=4;w=30');
      expect(seen.current, `response ${i}`).to.equal(`"default";r=${Math.max(0, 3 - i)};t=${seen.reset}`);
    });
    expect(responses[4]!.headers.get('retry-after')).to.equal(String(limits(responses[4]!.headers).reset));
  });

  it('are absent when no key was recognised (nothing was counted)', async () => {
    const response = await server.request('/brands/acme/carton-sizes', { key: null });
    expect(response.status).to.equal(401);
    expect(response.headers.get('ratelimit-limit')).to.equal(null);
    expect(response.headers.get('ratelimit')).to.equal(null);
    expect(response.headers.get('ratelimit-policy')).to.equal(null);
  });
});
