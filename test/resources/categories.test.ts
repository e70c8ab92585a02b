import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import {
  describeCommonRules,
  expectAnyOf,
  expectStringFilterLength,
  expectUuidFilter,
  ids,
  insertOne,
  qs,
  useApi,
} from './helpers.ts';

const FIELDS = ['id', 'name', 'parentId', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/categories', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'categories',
    includes: ['parent'],
    filter: { name: 'name', value: 'Tops' },
    make: (brandId) => insertOne('categories', brandId, { name: 'Tops' }),
  });

  it('returns exactly the declared fields in order, parentId null at the top', async () => {
    const top = await insertOne('categories', api.brand.id, { name: 'Tops', createdAt: '2026-03-01T09:30:00.000999Z', updatedAt: '2026-03-01T09:30:00Z' });
    const child = await insertOne('categories', api.brand.id, { name: 'T-Shirts', parentId: top.id, createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-03T09:31:00.5Z' });
    const response = await api.get('/brands/acme/categories');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: top.id, name: 'Tops', parentId: null, createdAt: '2026-03-01T09:30:00.000Z', updatedAt: '2026-03-01T09:30:00.000Z' },
        { id: child.id, name: 'T-Shirts', parentId: top.id, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-03T09:31:00.500Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
  });

  it('filters by exact name and by parentId, alone and together', async () => {
    const [tops, bottoms] = await insert('categories', api.brand.id, [{ name: 'Tops' }, { name: 'Bottoms' }]);
    const children = await insert('categories', api.brand.id, [
      { name: 'Shirts', parentId: tops!.id },
      { name: 'shirts', parentId: tops!.id },
      { name: 'Shirts', parentId: bottoms!.id },
      { name: 'Shorts', parentId: bottoms!.id },
    ]);
    const cases: [Record<string, string>, string[]][] = [
      [{ name: 'Shirts' }, [children[0]!.id, children[2]!.id]],
      [{ name: 'shirts' }, [children[1]!.id]],
      [{ name: 'Tops' }, [tops!.id]],
      [{ parentId: tops!.id }, [children[0]!.id, children[1]!.id]],
      [{ parentId: bottoms!.id }, [children[2]!.id, children[3]!.id]],
      [{ parentId: bottoms!.id, name: 'Shirts' }, [children[2]!.id]],
      [{ parentId: children[0]!.id }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/categories${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected);
      expect(response.body.totalItems).to.equal(expected.length);
    }
    await expectUuidFilter(api, 'categories', 'parentId');
    await expectStringFilterLength(api, 'categories', 'name');
    await expectAnyOf(api, 'categories', 'parentId', tops!.id);
  });

  it('includes the parent as an object, null at the top and for a parent of another brand', async () => {
    const foreign = await insertOne('categories', api.other.id, { name: 'Foreign parent' });
    const top = await insertOne('categories', api.brand.id, { name: 'Tops', createdAt: '2026-03-01T00:00:00Z', updatedAt: '2026-03-01T00:00:00Z' });
    const [child, crossed] = await insert('categories', api.brand.id, [
      { name: 'Tees', parentId: top.id },
      { name: 'Crossed', parentId: foreign.id },
    ]);
    const response = await api.get('/brands/acme/categories?include=parent');
    expect(response.status).to.equal(200);
    const expectedTop = { id: top.id, name: 'Tops', parentId: null, createdAt: '2026-03-01T00:00:00.000Z', updatedAt: '2026-03-01T00:00:00.000Z' };
    expect(response.body.items.map((c: { parent: unknown }) => c.parent)).to.deep.equal([null, expectedTop, null]);
    expect(Object.keys(response.body.items[1])).to.deep.equal([...FIELDS, 'parent']);
    const one = await api.get(`/brands/acme/categories/${child!.id}?include=parent`);
    expect(one.body.parent).to.deep.equal(expectedTop);
    const crossedOne = await api.get(`/brands/acme/categories/${crossed!.id}?include=parent`);
    expect(crossedOne.status).to.equal(200);
    expect(crossedOne.body.parentId).to.equal(foreign.id);
    expect(crossedOne.body.parent).to.equal(null);
  });
});
