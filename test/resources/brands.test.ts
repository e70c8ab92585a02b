import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestKey, insert } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { useServer } from '../support/use-server.ts';
import { expectError, qs } from './helpers.ts';

describe('GET /brands/{brand}', () => {
  let acme: Record<string, any>;
  let globex: Record<string, any>;
  let key: string;
  let globalKey: string;

  const server = useServer();
  beforeEach(async () => {
    await resetDatabase((await testDatabase()).db);
    [acme, globex] = await insert('brands', null, [
      { slug: 'acme', name: 'Acme Apparel', createdAt: '2026-01-01T08:00:00.123456Z', updatedAt: '2026-02-01T08:00:00Z' },
      { slug: 'globex', name: 'Globex', createdAt: '2026-01-02T08:00:00Z', updatedAt: '2026-01-02T08:00:00Z' },
    ]) as [Record<string, any>, Record<string, any>];
    ({ key } = await createTestKey({ brands: ['acme'] }));
    ({ key: globalKey } = await createTestKey({ global: true }));
  });

  it('returns exactly { id, slug, name, createdAt, updatedAt } of the brand in the path, bare', async () => {
    const response = await server.request('/brands/acme', { key });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.body).to.deep.equal({
      id: acme.id,
      slug: 'acme',
      name: 'Acme Apparel',
      createdAt: '2026-01-01T08:00:00.123Z',
      updatedAt: '2026-02-01T08:00:00.000Z',
    });
    expect(Object.keys(response.body)).to.deep.equal(['id', 'slug', 'name', 'createdAt', 'updatedAt']);
  });

  it('returns each brand to a key that may read it, and never another brand\'s record', async () => {
    const a = await server.request('/brands/acme', { key: globalKey });
    const g = await server.request('/brands/globex', { key: globalKey });
    expect(a.body.id).to.equal(acme.id);
    expect(g.body).to.deep.equal({ id: globex.id, slug: 'globex', name: 'Globex', createdAt: '2026-01-02T08:00:00.000Z', updatedAt: '2026-01-02T08:00:00.000Z' });
    // The acme key may not read globex.
    expectError(await server.request('/brands/globex', { key }), 401, 'unauthorized');
  });

  it('answers 404 not_found for a slug no brand has', async () => {
    expectError(await server.request('/brands/initech', { key: globalKey }), 404, 'not_found');
    expectError(await server.request('/brands/ACME', { key: globalKey }), 404, 'not_found');
  });

  it('rejects any query parameter, and answers any include with 400 unsupported_include', async () => {
    for (const [name, value] of [['limit', '5'], ['cursor', 'abc.def'], ['slug', 'acme'], ['id', randomUUID()]] as const) {
      expectError(await server.request(`/brands/acme${qs({ [name]: value })}`, { key }), 400, 'invalid_parameter', [name]);
    }
    for (const include of ['products', 'carton-sizes', 'brand']) {
      expectError(await server.request(`/brands/acme${qs({ include })}`, { key }), 400, 'unsupported_include');
    }
  });

  it('has no list of brands and no id route under a brand', async () => {
    expectError(await server.request('/brands', { key: globalKey }), 404, 'not_found');
    expectError(await server.request(`/brands/acme/${acme.id}`, { key: globalKey }), 404, 'not_found');
  });
});
