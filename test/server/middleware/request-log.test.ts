import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createBrand, createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

describe('request log', () => {
  let key: string;
  let keyId: string;

  const server = useServer();
  beforeEach(async () => {
    ({ key, keyId } = await resetToBrand());
  });

  const lineFor = (requestId: string): Record<string, unknown> => {
    const lines = server.logs.filter((l) => l.msg === 'request' && l.requestId === requestId);
    expect(lines, `one request line for ${requestId}`).to.have.length(1);
    return lines[0]!;
  };

  it('writes one line per request with method, path, status, keyId, brand and requestId', async () => {
    const requestId = `log-${randomUUID()}`;
    const response = await server.request('/brands/acme/carton-sizes?limit=5', { key, headers: { 'X-Request-Id': requestId } });
    expect(response.status).to.equal(200);
    const line = lineFor(requestId);
    expect(line).to.include({
      method: 'GET',
      path: '/api/public/v1/brands/acme/carton-sizes',
      status: 200,
      keyId,
      brand: 'acme',
      requestId,
    });
    expect(line.level).to.equal(30);
    expect(line.durationMs).to.be.a('number').and.at.least(0);
  });

  it('logs refused requests too: no key id without a key, the key id but no brand for another brand', async () => {
    await createBrand('globex');
    const anonymous = `anon-${randomUUID()}`;
    expect((await server.request('/brands/acme/carton-sizes', { headers: { 'X-Request-Id': anonymous } })).status).to.equal(401);
    expect(lineFor(anonymous)).to.include({ status: 401, keyId: null, brand: null, method: 'GET' });

    const elsewhere = `else-${randomUUID()}`;
    expect((await server.request('/brands/globex/carton-sizes', { key, headers: { 'X-Request-Id': elsewhere } })).status).to.equal(401);
    expect(lineFor(elsewhere)).to.include({ status: 401, keyId, brand: null });

    const missing = `miss-${randomUUID()}`;
    expect((await server.request('/nope', { key, method: 'POST', headers: { 'X-Request-Id': missing } })).status).to.equal(404);
    expect(lineFor(missing)).to.include({ status: 404, method: 'POST', path: '/api/public/v1/nope' });
  });

  it('never contains the key, its secret, or the values of the query', async () => {
    const secret = key.slice('bcat_sk_'.length);
    const { key: otherKey } = await createTestKey({ global: true });
    const requests: [string, Record<string, string>][] = [
      ['/brands/acme/carton-sizes?name=TopSecretFilterValue', { Authorization: `Bearer ${key}` }],
      ['/brands/acme/carton-sizes', { Authorization: `bearer ${key}` }],
      ['/brands/nope/carton-sizes', { Authorization: `Bearer ${key}` }],
      ['/brands/acme/carton-sizes', { Authorization: `Basic ${key}` }],
      ['/brands/acme/carton-sizes', { Authorization: `Bearer ${key}x` }],
      ['/brands/acme/carton-sizes?limit=0', { Authorization: `Bearer ${otherKey}` }],
      ['/nope', { Authorization: `Bearer ${key}` }],
    ];
    for (const [path, headers] of requests) await server.request(path, { headers });
    const { db } = await testDatabase();
    await db.raw('alter table notes rename to notes_gone');
    try {
      expect((await server.request('/brands/acme/notes?entityType=product', { key })).status).to.equal(500);
    } finally {
      await db.raw('alter table notes_gone rename to notes');
    }
    const all = JSON.stringify(server.logs);
    expect(server.logs.filter((l) => l.msg === 'request').length).to.be.at.least(requests.length + 1);
    for (const leak of [key, secret, otherKey, otherKey.slice(8), secret.slice(0, 16), 'TopSecretFilterValue']) {
      expect(all.includes(leak), `logs contain ${leak}`).to.equal(false);
    }
  });
});
