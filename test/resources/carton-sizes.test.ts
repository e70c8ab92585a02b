import { expect } from 'chai';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { useServer } from '../support/use-server.ts';
import { describeCommonRules, expectError, expectStringFilterLength, ids, insertOne, qs, useApi } from './helpers.ts';

describe('GET /brands/{brand}/carton-sizes', () => {
  let brand: { id: string; slug: string };
  let key: string;

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand());
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

describe('GET /brands/{brand}/carton-sizes (records, filters and rules)', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'carton-sizes',
    includes: [],
    filter: { name: 'name', value: 'Small' },
    make: (brandId) => insertOne('carton-sizes', brandId, { name: 'Small', lengthCm: '40.50', widthCm: '30.00', heightCm: '20' }),
  });

  it('returns the fields in the declared order, with null for null columns', async () => {
    const [carton] = await insert('carton-sizes', api.brand.id, [{ createdAt: '2026-03-01T09:30:00Z', updatedAt: '2026-03-01T09:30:00Z' }]);
    const response = await api.get('/brands/acme/carton-sizes');
    expect(response.status).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['items', 'nextCursor', 'totalItems']);
    const [item] = response.body.items;
    expect(Object.keys(item)).to.deep.equal(['id', 'name', 'lengthCm', 'widthCm', 'heightCm', 'createdAt', 'updatedAt']);
    expect(item).to.deep.equal({
      id: carton!.id,
      name: null,
      lengthCm: null,
      widthCm: null,
      heightCm: null,
      createdAt: '2026-03-01T09:30:00.000Z',
      updatedAt: '2026-03-01T09:30:00.000Z',
    });
  });

  it('returns decimals as strings that keep the stored scale and digits', async () => {
    const [carton] = await insert('carton-sizes', api.brand.id, [
      { name: 'Odd', lengthCm: '0.00', widthCm: '123456789012345678.125', heightCm: '-1.50' },
    ]);
    const response = await api.get(`/brands/acme/carton-sizes/${carton!.id}`);
    expect(response.status).to.equal(200);
    expect(response.body.lengthCm).to.equal('0.00');
    expect(response.body.widthCm).to.equal('123456789012345678.125');
    expect(response.body.heightCm).to.equal('-1.50');
    expect(Object.keys(response.body)).to.deep.equal(['id', 'name', 'lengthCm', 'widthCm', 'heightCm', 'createdAt', 'updatedAt']);
  });

  it('writes timestamps in UTC with milliseconds, whatever offset they were stored with', async () => {
    const [carton] = await insert('carton-sizes', api.brand.id, [
      { name: 'Tz', createdAt: '2026-03-01T11:30:00.5+02:00', updatedAt: '2026-12-31T23:59:59.999999Z' },
    ]);
    const response = await api.get(`/brands/acme/carton-sizes/${carton!.id}`);
    expect(response.status).to.equal(200);
    expect(response.body.createdAt).to.equal('2026-03-01T09:30:00.500Z');
    expect(response.body.updatedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(response.body.updatedAt).to.equal('2026-12-31T23:59:59.999Z');
  });

  it('takes spaces, punctuation, % and _ in the name filter literally', async () => {
    const records = await insert('carton-sizes', api.brand.id, [
      { name: 'Box (L) / 60×40, #2' },
      { name: '100%' },
      { name: '1000' },
      { name: 'a_b' },
      { name: 'axb' },
      { name: ' padded ' },
      { name: 'padded' },
      { name: 'Ünïcode Größe' },
    ]);
    const byName = (name: string) => api.get(`/brands/acme/carton-sizes${qs({ name })}`);
    const cases: [string, number[]][] = [
      ['Box (L) / 60×40, #2', [0]],
      ['100%', [1]],
      ['%', []],
      ['10_0', []],
      ['a_b', [3]],
      ['a%b', []],
      [' padded ', [5]],
      ['padded', [6]],
      ['Ünïcode Größe', [7]],
      ['ünïcode größe', []],
      ['Box (L)', []],
    ];
    for (const [name, expected] of cases) {
      const response = await byName(name);
      expect(ids(response), name).to.deep.equal(expected.map((i) => records[i]!.id));
      expect(response.body.totalItems, name).to.equal(expected.length);
    }
  });

  it('applies the length rule to the name filter and refuses a NUL character', async () => {
    await insert('carton-sizes', api.brand.id, [{ name: 'y'.repeat(255) }]);
    await expectStringFilterLength(api, 'carton-sizes', 'name');
    const full = await api.get(`/brands/acme/carton-sizes${qs({ name: 'y'.repeat(255) })}`);
    expect(full.body.totalItems).to.equal(1);
    expectError(await api.get('/brands/acme/carton-sizes?name=a%00b'), 400, 'invalid_parameter', ['name']);
  });

  it('counts the filtered records across pages', async () => {
    await insert('carton-sizes', api.brand.id, Array.from({ length: 12 }, (_, i) => ({ name: i % 3 === 0 ? 'Match' : 'Other' })));
    await insert('carton-sizes', api.other.id, [{ name: 'Match' }]);
    const response = await api.get('/brands/acme/carton-sizes?name=Match&limit=2');
    expect(response.status).to.equal(200);
    expect(response.body.items).to.have.length(2);
    expect(response.body.totalItems).to.equal(4);
    expect(response.body.nextCursor).to.be.a('string');
  });
});
