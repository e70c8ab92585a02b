import { expect } from 'chai';
import { generateKey, hashKey } from '../../../src/server/auth/api-keys.ts';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { rawRequest } from '../../support/raw-request.ts';

describe('authentication (Authorization: Bearer <key>)', () => {
  let server: TestServer;
  let acme: { id: string; slug: string };
  let key: string;
  const path = '/brands/acme/carton-sizes';

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  beforeEach(async () => {
    ({ brand: acme, key } = await resetToBrand());
    await createBrand('globex');
    await insert('carton-sizes', acme.id, [{ name: 'Small', lengthCm: '1', widthCm: '2', heightCm: '3' }]);
  });

  async function expectUnauthorized(headers: Record<string, string>, requestPath = path): Promise<void> {
    const response = await server.request(requestPath, { headers });
    expect(response.status, JSON.stringify(headers)).to.equal(401);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expectErrorBody(response.body, 'unauthorized', { details: 'forbidden' });
  }

  it('accepts a valid brand key', async () => {
    const response = await server.request(path, { key });
    expect(response.status).to.equal(200);
    expect(response.body.totalItems).to.equal(1);
  });

  it('answers 401 with no Authorization header', async () => {
    await expectUnauthorized({});
  });

  it('sends WWW-Authenticate: Bearer with a 401 for a missing key', async () => {
    const response = await server.request(path);
    expect(response.status).to.equal(401);
    expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
  });

  it('answers 401 for the Basic scheme, even carrying a valid key', async () => {
    await expectUnauthorized({ Authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` });
    await expectUnauthorized({ Authorization: `Basic ${key}` });
  });

  it('answers 401 for "Bearer" with no key', async () => {
    await expectUnauthorized({ Authorization: 'Bearer' });
    await expectUnauthorized({ Authorization: 'Bearer    ' });
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
      await expectUnauthorized({ Authorization: `Bearer ${bad}` });
    }
  });

  it('answers 401 for an unknown key of the right shape', async () => {
    const unknown = generateKey();
    expect(unknown).to.match(/^bcat_sk_[0-9A-Za-z]{46}$/);
    await expectUnauthorized({ Authorization: `Bearer ${unknown}` });
  });

  it('refuses a key whose checksum fails without a database lookup', async () => {
    const { db } = await testDatabase();
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    const typo = `${key.slice(0, -1)}${last}`;
    const queries: string[] = [];
    const listen = (query: { sql: string }): void => {
      queries.push(query.sql);
    };
    db.on('query', listen);
    try {
      await expectUnauthorized({ Authorization: `Bearer ${typo}` });
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
    await expectUnauthorized({ Authorization: `Bearer ${revoked.key}` });
  });

  it('answers 401 for an expired key, and 200 for one that expires later', async () => {
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    await expectUnauthorized({ Authorization: `Bearer ${expired.key}` });
    const later = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await server.request(path, { key: later.key })).status).to.equal(200);
  });

  it('answers 401 for a key of another brand', async () => {
    const { key: globexKey } = await createTestKey({ brands: ['globex'] });
    await expectUnauthorized({ Authorization: `Bearer ${globexKey}` });
    await expectUnauthorized({ Authorization: `Bearer ${globexKey}` }, '/brands/acme');
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
    await expectUnauthorized({ Authorization: `Bearer ${twoKey}` }, '/brands/initech/carton-sizes');
    await expectUnauthorized({ Authorization: `Bearer ${twoKey}` }, '/brands/initech');
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

  it('answers the same 401 body for every kind of bad key, so a caller cannot tell them apart', async () => {
    const { db } = await testDatabase();
    const revoked = await createTestKey({ brands: ['acme'] });
    await revokeKey(db, revoked.id);
    const expired = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() - 1000) });
    const bodies = new Set<string>();
    const variants: Record<string, string>[] = [{}, { Authorization: `Bearer ${generateKey()}` }, { Authorization: `Bearer ${revoked.key}` }, { Authorization: `Bearer ${expired.key}` }, { Authorization: 'Bearer nope' }];
    for (const headers of variants) {
      const response = await server.request(path, { headers });
      expect(response.status).to.equal(401);
      bodies.add(response.text);
    }
    expect(bodies.size).to.equal(1);
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
