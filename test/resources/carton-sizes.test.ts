import { expect } from 'chai';
import { createBrand, createTestKey, insert } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('GET /brands/{brand}/carton-sizes', () => {
  let server: TestServer;
  let brand: { id: string; slug: string };
  let key: string;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  beforeEach(async () => {
    await resetDatabase((await testDatabase()).db);
    brand = await createBrand('acme');
    ({ key } = await createTestKey({ brands: ['acme'] }));
  });

  it('returns exactly the spec fields, decimals as strings and timestamps with milliseconds', async () => {
    const [carton] = await insert('carton-sizes', brand.id, [
      { name: 'Small', lengthCm: '40.50', widthCm: '30', heightCm: '20.25', createdAt: '2026-03-01T09:30:00.123456Z', updatedAt: '2026-03-02T10:00:00Z' },
    ]);
    const response = await server.request('/brands/acme/carton-sizes', { key });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.body).to.deep.equal({
      items: [{
        id: carton!.id,
        name: 'Small',
        lengthCm: '40.50',
        widthCm: '30',
        heightCm: '20.25',
        createdAt: '2026-03-01T09:30:00.123Z',
        updatedAt: '2026-03-02T10:00:00.000Z',
      }],
      nextCursor: null,
      totalItems: 1,
    });
    expect(response.headers.get('link')).to.equal(null);
  });

  it('pages 25 at a time by default, follows Link to the end, and never repeats or skips', async () => {
    const created = await insert('carton-sizes', brand.id, Array.from({ length: 60 }, (_, i) => ({ name: `Carton ${i}` })));
    const seen: string[] = [];
    let path: string | null = '/brands/acme/carton-sizes';
    const pageSizes: number[] = [];
    while (path) {
      const response = await server.request(path, { key });
      expect(response.status).to.equal(200);
      expect(response.body.totalItems).to.equal(60);
      pageSizes.push(response.body.items.length);
      seen.push(...response.body.items.map((item: { id: string }) => item.id));
      const link = response.headers.get('link');
      if (response.body.nextCursor === null) {
        expect(link).to.equal(null);
        path = null;
      } else {
        const match = /^<([^>]+)>; rel="next"$/.exec(link ?? '');
        expect(match, `Link header: ${link}`).to.not.equal(null);
        const next = new URL(match![1]!, server.origin);
        expect(next.searchParams.get('cursor')).to.equal(response.body.nextCursor);
        expect(next.searchParams.get('limit')).to.equal('25');
        path = `${next.pathname}${next.search}`;
      }
    }
    expect(pageSizes).to.deep.equal([25, 25, 10]);
    expect(seen).to.deep.equal(created.map((record) => record.id));
  });

  it('filters by exact, case-sensitive name', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'Small box' }, { name: 'small box' }, { name: 'Small box ' }, { name: 'Small' }]);
    const response = await server.request(`/brands/acme/carton-sizes?name=${encodeURIComponent('Small box')}`, { key });
    expect(response.status).to.equal(200);
    expect(response.body.items.map((item: { name: string }) => item.name)).to.deep.equal(['Small box']);
    expect(response.body.totalItems).to.equal(1);
  });
});
