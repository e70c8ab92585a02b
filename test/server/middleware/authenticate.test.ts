import { expect } from 'chai';
import { generateKey, hashKey } from '../../../src/server/auth/api-keys.ts';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createBrand, createTestKey, insert, resetToBrand, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { startTestServer, type TestResponse, type TestServer } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';
import { createKeyCache, type KeyCache } from '../../../src/server/auth/key-cache.ts';
import { freePort } from '../../support/free-port.ts';
import { LocalRedis, waitUntilCountingInRedis } from '../../support/local-redis.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { KEY_REFUSALS, type KeyRefusal } from '../../../src/engine/request/key-refusals.ts';

describe('authentication (Authorization: Bearer <key>)', () => {
  let acme: { id: string; slug: string };
  let key: string;
  const path = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand: acme, key } = await resetToBrand());
    await createBrand('globex');
    await insert('carton-sizes', acme.id, [{ name: 'Small', lengthCm: '1', widthCm: '2', heightCm: '3' }]);
  });

  /** A 401 whose `details` give the reason, and whose message is that reason's (key-refusals.ts). */
  async function expectUnauthorized(headers: Record<string, string>, reason: KeyRefusal, requestPath = path): Promise<TestResponse> {
    const response = await server.request(requestPath, { headers });
    expect(response.status, JSON.stringify(headers)).to.equal(401);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expectErrorBody(response.body, 'unauthorized', { details: 'required' });
    expect(response.body.details, JSON.stringify(headers)).to.deep.equal({ reason });
    expect(response.body.error).to.equal(KEY_REFUSALS[reason]);
    return response;
  }

  it('accepts a valid brand key', async () => {
    const response = await server.request(path, { key });
    expect(response.status).to.equal(200);
    expect(response.body.totalItems).to.equal(1);
  });

  it('answers 401 with no Authorization header', async () => {
    await expectUnauthorized({}, 'missing');
  });

  it('sends WWW-Authenticate: Bearer with a 401 for a missing key', async () => {
    const response = await server.request(path);
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
  });

  it('answers 401 for the Basic scheme, even carrying a valid key', async () => {
    await expectUnauthorized({ Authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }, 'malformed');
    await expectUnauthorized({ Authorization: `Basic ${key}` }, 'malformed');
  });

  it('answers 401 for "Bearer" with no key', async () => {
    await expectUnauthorized({ Authorization: 'Bearer' }, 'malformed');
    await expectUnauthorized({ Authorization: 'Bearer    ' }, 'malformed');
  });

  it('answers 401 for keys of the wrong shape', async () => {
    for (const bad of [
      'bcat_sk_short',
      `${key}x`,
      key.slice(0, -1),
      key.replace('bcat_', 'other_'),
      `${key.slice(0, -1)}-`,
      key.toUpperCase(),
      `${key} ${key}`,
    ]) {
      await expectUnauthorized({ Authorization: `Bearer ${bad}` }, 'malformed');
    }
  });

  it('answers 401 for an unknown key of the right shape', async () => {
    const unknown = generateKey();
    expect(unknown).to.match(/^bcat_sk_[0-9A-Za-z]{46}$/);
    await expectUnauthorized({ Authorization: `Bearer ${unknown}` }, 'unknown_or_revoked');
  });

  it('refuses a key whose checksum fails without a database lookup', async () => {
    const { served: db } = await testDatabase();
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    const typo = `${key.slice(0, -1)}${last}`;
    const queries: string[] = [];
    const listen = (query: { sql: string }): void => {
      queries.push(query.sql);
    };
    db.on('query', listen);
    try {
      await expectUnauthorized({ Authorization: `Bearer ${typo}` }, 'malformed');
    } finally {
      db.off('query', listen);
    }
    expect(queries).to.deep.equal([]);
  });

  it('keeps accepting a key made before checksums (43 random characters)', async () => {
    const { db } = await testDatabase();
    const legacy = `bcat_sk_${'7Qx9'.repeat(11).slice(0, 43)}`;
    const [row] = (await db('api_keys').insert({ key_hash: hashKey(legacy), hint: legacy.slice(-4), is_global: false }).returning('id')) as { id: string }[];
    await db('api_key_brands').insert({ key_id: row!.id, brand_id: acme.id });
    const response = await server.request(path, { key: legacy });
    expect(response.status, response.text).to.equal(200);
    expect(response.body.totalItems).to.equal(1);
  });

  it('answers 401 for a revoked key', async () => {
    const { db } = await testDatabase();
    const revoked = await createTestKey({ brands: ['acme'] });
    expect((await server.request(path, { key: revoked.key })).status).to.equal(200);
    expect(await revokeKey(db, revoked.id)).to.equal(true);
    await expectUnauthorized({ Authorization: `Bearer ${revoked.key}` }, 'unknown_or_revoked');
  });

  it('answers 401 for an expired key, and 200 for one that expires later', async () => {
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    await expectUnauthorized({ Authorization: `Bearer ${expired.key}` }, 'expired');
    const later = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await server.request(path, { key: later.key })).status).to.equal(200);
  });

  it('answers 401 for a key of another brand', async () => {
    const { key: globexKey } = await createTestKey({ brands: ['globex'] });
    await expectUnauthorized({ Authorization: `Bearer ${globexKey}` }, 'brand_not_allowed');
    await expectUnauthorized({ Authorization: `Bearer ${globexKey}` }, 'brand_not_allowed', '/brands/acme');
    // The same key reads its own brand.
    expect((await server.request('/brands/globex/carton-sizes', { key: globexKey })).status).to.equal(200);
  });

  it('accepts the scheme in lower case ("bearer")', async () => {
    const response = await server.request(path, { headers: { Authorization: `bearer ${key}` } });
    expect(response.status).to.equal(200);
    expect(response.body.totalItems).to.equal(1);
  });

  it('lets a global key read any brand', async () => {
    const { key: globalKey } = await createTestKey({ global: true });
    const later = await createBrand('initech');
    for (const slug of ['acme', 'globex', later.slug]) {
      const list = await server.request(`/brands/${slug}/carton-sizes`, { key: globalKey });
      expect(list.status, slug).to.equal(200);
      const brand = await server.request(`/brands/${slug}`, { key: globalKey });
      expect(brand.status, slug).to.equal(200);
      expect(brand.body.slug).to.equal(slug);
    }
  });

  it('lets a key scoped to two brands read both, but not a third', async () => {
    await createBrand('initech');
    const { key: twoKey } = await createTestKey({ brands: ['acme', 'globex'] });
    expect((await server.request('/brands/acme/carton-sizes', { key: twoKey })).status).to.equal(200);
    expect((await server.request('/brands/globex/carton-sizes', { key: twoKey })).status).to.equal(200);
    await expectUnauthorized({ Authorization: `Bearer ${twoKey}` }, 'brand_not_allowed', '/brands/initech/carton-sizes');
    await expectUnauthorized({ Authorization: `Bearer ${twoKey}` }, 'brand_not_allowed', '/brands/initech');
  });

  it('answers 404 not_found for an unknown brand slug with a valid key, whatever its scope', async () => {
    const { key: globalKey } = await createTestKey({ global: true });
    const { key: globexKey } = await createTestKey({ brands: ['globex'] });
    for (const k of [key, globalKey, globexKey]) {
      for (const p of ['/brands/no-such-brand/carton-sizes', '/brands/no-such-brand', `/brands/no-such-brand/carton-sizes/${acme.id}`]) {
        const response = await server.request(p, { key: k });
        expect(response.status, p).to.equal(404);
        expectErrorBody(response.body, 'not_found', { details: 'forbidden' });
      }
    }
  });

  it('says which key mistake it was, and tells a revoked key from an unknown one by nothing', async () => {
    const { db } = await testDatabase();
    const revoked = await createTestKey({ brands: ['acme'] });
    await revokeKey(db, revoked.id);
    const unknown = await expectUnauthorized({ Authorization: `Bearer ${generateKey()}` }, 'unknown_or_revoked');
    const gone = await expectUnauthorized({ Authorization: `Bearer ${revoked.key}` }, 'unknown_or_revoked');
    expect(gone.text).to.equal(unknown.text);
    expect(gone.headers.get('www-authenticate')).to.equal(unknown.headers.get('www-authenticate'));
  });

  it('challenges with invalid_token once a key was sent, plain Bearer when none was, and not at all for a live key the brand refuses (RFC 6750)', async () => {
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    const { key: globexKey } = await createTestKey({ brands: ['globex'] });
    expect((await expectUnauthorized({}, 'missing')).headers.get('www-authenticate')).to.equal('Bearer');
    for (const [headers, reason] of [[{ Authorization: 'Bearer nope' }, 'malformed'], [{ Authorization: `Bearer ${generateKey()}` }, 'unknown_or_revoked'], [{ Authorization: `Bearer ${expired.key}` }, 'expired']] as const) {
      expect((await expectUnauthorized(headers, reason)).headers.get('www-authenticate'), reason).to.equal('Bearer error="invalid_token"');
    }
    expect((await expectUnauthorized({ Authorization: `Bearer ${globexKey}` }, 'brand_not_allowed')).headers.get('www-authenticate')).to.equal(null);
  });

  it('calls a key expired only while it is not revoked: a revoked expired key is unknown or revoked', async () => {
    const { db } = await testDatabase();
    const both = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    await revokeKey(db, both.id);
    await expectUnauthorized({ Authorization: `Bearer ${both.key}` }, 'unknown_or_revoked');
  });
});

/**
 * The failed-authentication limit slows and refuses what carries no valid key, never a valid key
 * (CONTRACT.md §4): behind one NAT, a neighbour's broken job must not lock out an integrator.
 * On both stores of the counts: in process, and Redis (a redis-server of the test's own).
 */
for (const store of ['memory', 'redis'] as const) {
  describe(`failed authentication limit per client (${store} store)`, function () {
    this.timeout(30_000);
    let redis: LocalRedis | null = null;
    let server: TestServer;
    const path = '/brands/acme/carton-sizes';
    const wellFormedUnknown = (): string => generateKey();

    const start = async (options: { trustProxy?: boolean; keyCache?: KeyCache } = {}): Promise<TestServer> => {
      const started = await startTestServer({ authFailurePoints: 3, redisUrl: redis?.url ?? null, ...options });
      if (redis) await waitUntilCountingInRedis(started.limiter, redis.url);
      return started;
    };

    before(async () => {
      if (store === 'redis') {
        redis = new LocalRedis(await freePort());
        await redis.start();
      }
    });
    after(async () => {
      await redis?.dispose();
    });
    beforeEach(async () => {
      await resetToBrands('acme');
      server = await start();
    });
    afterEach(() => server.close());

    /** Spends the client's budget of 3 failures, with a missing, a malformed and a well-formed unknown key. */
    async function spendBudget(target: TestServer, headers: Record<string, string> = {}): Promise<void> {
      for (const authorization of [null, 'Bearer nope', `Bearer ${wellFormedUnknown()}`]) {
        const response = await target.request(path, { headers: { ...headers, ...(authorization ? { Authorization: authorization } : {}) } });
        expect(response.status, `failure ${authorization}`).to.equal(401);
      }
    }

    function expectBlocked(response: TestResponse, what: string): void {
      expect(response.status, `${what}: ${response.text}`).to.equal(429);
      expectErrorBody(response.body, 'rate_limited', { details: 'forbidden' });
      expect(response.body.error).to.equal('Too many failed authentications from this client.');
      expect(Number(response.headers.get('retry-after')), what).to.be.within(1, 60);
    }

    it('refuses a flood of bad keys with 429 and Retry-After once the budget is spent, and still serves a valid key from the same address', async () => {
      const { key } = await createTestKey({ brands: ['acme'] });
      await spendBudget(server);
      const revoked = await createTestKey({ brands: ['acme'] });
      await revokeKey((await testDatabase()).db, revoked.id);
      const bad: [string, Record<string, string>][] = [
        ['missing', {}],
        ['malformed', { Authorization: 'Bearer bcat_sk_short' }],
        ['bad checksum', { Authorization: `Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}` }],
        ['well-formed unknown', { Authorization: `Bearer ${wellFormedUnknown()}` }],
        ['revoked', { Authorization: `Bearer ${revoked.key}` }],
      ];
      for (const [what, headers] of bad) expectBlocked(await server.request(path, { headers }), what);
      // The valid key has never been used: no cache knows it, and it is served all the same, every time.
      for (let i = 0; i < 3; i += 1) {
        const served = await server.request(path, { key });
        expect(served.status, served.text).to.equal(200);
        expect(served.headers.get('ratelimit-limit'), 'counted against its own key').to.be.a('string');
      }
      // Serving it lifts nothing: bad keys from that address are still refused.
      expectBlocked(await server.request(path, { key: wellFormedUnknown() }), 'after the valid key');
    });

    it('serves valid keys in the middle of a concurrent flood, and the flood looks up no key one by one', async () => {
      const keyCache = createKeyCache({ ttlMs: 60_000 });
      const cachedServer = await start({ keyCache });
      try {
        const { served: db } = await testDatabase();
        const fresh = await createTestKey({ brands: ['acme'] });
        const warm = await createTestKey({ brands: ['acme'] });
        expect((await cachedServer.request(path, { key: warm.key })).status, 'the warm key is cached now').to.equal(200);
        await spendBudget(cachedServer);

        const inFlight = new Set<string>();
        let mostInFlight = 0;
        let grantLookups = 0;
        const onQuery = (query: { sql: string; __knexQueryUid: string }): void => {
          if (query.sql.includes('from api_keys k')) grantLookups += 1;
          if (!query.sql.includes('from "api_keys"')) return;
          inFlight.add(query.__knexQueryUid);
          mostInFlight = Math.max(mostInFlight, inFlight.size);
        };
        const onDone = (_: unknown, query: { __knexQueryUid: string }): void => {
          inFlight.delete(query.__knexQueryUid);
        };
        db.on('query', onQuery).on('query-response', onDone).on('query-error', onDone);
        let answers: TestResponse[];
        try {
          answers = await Promise.all(Array.from({ length: 120 }, () => cachedServer.request(path, { key: wellFormedUnknown() })));
        } finally {
          db.off('query', onQuery).off('query-response', onDone).off('query-error', onDone);
        }
        for (const answer of answers) expectBlocked(answer, 'a well-formed unknown key in the flood');
        expect(grantLookups, 'no full key lookup for a key that is not live').to.equal(0);
        expect(mostInFlight, 'the flood\'s key checks hold one connection at most').to.equal(1);

        const mixed = await Promise.all([
          ...Array.from({ length: 40 }, () => cachedServer.request(path, { key: wellFormedUnknown() })),
          ...Array.from({ length: 5 }, () => cachedServer.request(path, { key: fresh.key })),
          ...Array.from({ length: 5 }, () => cachedServer.request(path, { key: warm.key })),
        ]);
        mixed.slice(0, 40).forEach((answer) => expectBlocked(answer, 'a bad key beside valid ones'));
        for (const answer of mixed.slice(40)) expect(answer.status, answer.text).to.equal(200);
      } finally {
        await cachedServer.close();
      }
    });

    it('counts per client: with TRUST_PROXY, X-Forwarded-For names the client', async () => {
      const proxied = await start({ trustProxy: true });
      try {
        const { key } = await createTestKey({ brands: ['acme'] });
        const as = (ip: string, token: string | null) => rawRequest(proxied.origin, `/api/public/v1${path}`, {
          headers: { 'X-Forwarded-For': ip, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        });
        await spendBudget(proxied, { 'X-Forwarded-For': '203.0.113.7' });
        expect((await as('203.0.113.7', null)).status).to.equal(429);
        expect((await as('203.0.113.7', key)).status, 'a valid key of the blocked client').to.equal(200);
        expect((await as('198.51.100.9', null)).status, 'another client is not blocked').to.equal(401);
        // A proxy that appends keeps what the client sent: only the last address, the one it added, counts.
        expect((await as('192.0.2.1, 203.0.113.7', null)).status, 'a forged first address does not escape the block').to.equal(429);
        expect((await as('203.0.113.7, 198.51.100.9', wellFormedUnknown())).status, 'the last address is the client').to.equal(401);
      } finally {
        await proxied.close();
      }
    });
  });
}
