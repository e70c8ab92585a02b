import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import {
  describeCommonRules,
  expectError,
  expectAnyOf,
  expectStringFilterLength,
  expectUuidFilter,
  ids,
  insertOne,
  listOrder,
  qs,
  useApi,
} from './helpers.ts';

const FIELDS = ['id', 'code', 'name', 'status', 'category', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/products', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'products',
    includes: ['versions', 'relations'],
    filter: { name: 'code', value: 'TEE-001' },
    make: async (brandId) => {
      const category = await insertOne('categories', brandId, { name: 'Tops' });
      return insertOne('products', brandId, { code: 'TEE-001', name: 'Linen Tee', status: 'approved', categoryId: category.id });
    },
  });

  it('returns exactly the spec fields in order, the category as its label, null without a category', async () => {
    const tops = await insertOne('categories', api.brand.id, { name: 'Tops' });
    const [tee, bare] = await insert('products', api.brand.id, [
      { code: 'TEE-001', name: 'Linen Tee', status: 'approved', categoryId: tops.id, createdAt: '2026-03-01T09:30:00.123456Z', updatedAt: '2026-03-02T00:00:00Z' },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/products');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: tee!.id, code: 'TEE-001', name: 'Linen Tee', status: 'approved', category: 'Tops', createdAt: '2026-03-01T09:30:00.123Z', updatedAt: '2026-03-02T00:00:00.000Z' },
        { id: bare!.id, code: null, name: null, status: null, category: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    expect(response.body.items[0]).to.not.have.property('categoryId');
    const one = await api.get(`/brands/acme/products/${tee!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
    expect(Object.keys(one.body)).to.deep.equal(FIELDS);
  });

  it('never shows the label of a category of another brand', async () => {
    const foreign = await insertOne('categories', api.other.id, { name: 'Secret' });
    const product = await insertOne('products', api.brand.id, { code: 'X', categoryId: foreign.id });
    const list = await api.get('/brands/acme/products');
    expect(list.body.items[0].category).to.equal(null);
    const one = await api.get(`/brands/acme/products/${product.id}`);
    expect(one.body.category).to.equal(null);
    expect(one.text).to.not.contain('Secret');
  });

  it('filters code and status exactly and case-sensitively', async () => {
    const products = await insert('products', api.brand.id, [
      { code: 'TEE-001', status: 'approved' },
      { code: 'tee-001', status: 'Approved' },
      { code: 'TEE-001 ', status: 'in review' },
      { code: 'TEE_001', status: 'approved' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ code: 'TEE-001' }, [0]],
      [{ code: 'tee-001' }, [1]],
      [{ code: 'TEE-001 ' }, [2]],
      [{ code: 'TEE_001' }, [3]],
      [{ code: 'TEE' }, []],
      [{ status: 'approved' }, [0, 3]],
      [{ status: 'Approved' }, [1]],
      [{ status: 'in review' }, [2]],
      [{ status: 'in' }, []],
      [{ code: 'TEE-001', status: 'approved' }, [0]],
      [{ code: 'TEE-001', status: 'Approved' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/products${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => products[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('filters by category id (not by label), and combines it with other filters', async () => {
    const [tops, otherTops, bottoms] = await insert('categories', api.brand.id, [{ name: 'Tops' }, { name: 'Tops' }, { name: 'Bottoms' }]);
    const products = await insert('products', api.brand.id, [
      { code: 'A', status: 'approved', categoryId: tops!.id },
      { code: 'B', status: 'draft', categoryId: tops!.id },
      { code: 'C', status: 'approved', categoryId: otherTops!.id },
      { code: 'D', status: 'approved', categoryId: bottoms!.id },
      { code: 'E', status: 'approved' },
    ]);
    const byTops = await api.get(`/brands/acme/products?category=${tops!.id}`);
    expect(ids(byTops)).to.deep.equal([products[0]!.id, products[1]!.id]);
    expect(byTops.body.totalItems).to.equal(2);
    expect(byTops.body.items.map((p: { category: string }) => p.category)).to.deep.equal(['Tops', 'Tops']);
    const combined = await api.get(`/brands/acme/products?category=${tops!.id}&status=approved`);
    expect(ids(combined)).to.deep.equal([products[0]!.id]);
    expect(combined.body.totalItems).to.equal(1);
    expect(ids(await api.get(`/brands/acme/products?category=${bottoms!.id}`))).to.deep.equal([products[3]!.id]);
    // The label is not a category id.
    expectError(await api.get('/brands/acme/products?category=Tops'), 400, 'invalid_parameter', ['category']);
    await expectUuidFilter(api, 'products', 'category');
  });

  it('finds a case-insensitive literal substring of the name or the code with search', async () => {
    const products = await insert('products', api.brand.id, [
      { name: '100% Linen Tee', code: 'LT-100' }, // 0
      { name: '1000 Thread Shirt', code: 'TS-1000' }, // 1
      { name: 'Linen_Blend Pant', code: 'PANT-01' }, // 2
      { name: 'Plain Pant', code: 'PP_02' }, // 3
      { name: 'Cotton Hoodie', code: 'CH-03' }, // 4
      { name: 'LINEN SHORTS', code: 'ls-04' }, // 5
      { name: 'Back\\slash Cap', code: 'BC-05' }, // 6
      { name: null, code: 'NONAME-linen' }, // 7
      { name: 'No code linen scarf', code: null }, // 8
    ]);
    await insert('products', api.other.id, [{ name: '100% Linen Tee', code: 'LT-100' }, { name: 'x_y', code: 'a_b' }]);
    const cases: [string, number[]][] = [
      ['100%', [0]],
      ['%', [0]],
      ['0%', [0]],
      ['_', [2, 3]],
      ['n_B', [2]],
      ['P_0', [3]],
      ['%Linen', []],
      ['Linen%', []],
      ['L_nen', []],
      ['linen', [0, 2, 5, 7, 8]],
      ['LINEN', [0, 2, 5, 7, 8]],
      ['lInEn tEe', [0]],
      ['lt-100', [0]],
      ['LS-04', [5]],
      ['1000', [1]],
      ['100', [0, 1]],
      ['\\', [6]],
      ['k\\s', [6]],
      [' ', [0, 1, 2, 3, 4, 5, 6, 8]],
      ['hoodie', [4]],
      ['tee-', []],
      ['nonexistent', []],
    ];
    for (const [search, expected] of cases) {
      const response = await api.get(`/brands/acme/products${qs({ search })}`);
      expect(ids(response), `search=${search}`).to.deep.equal(expected.map((i) => products[i]!.id));
      expect(response.body.totalItems, `search=${search}`).to.equal(expected.length);
    }
  });

  it('folds case beyond ASCII in search', async () => {
    const [accented] = await insert('products', api.brand.id, [{ name: 'Ünïcode Été Tee', code: 'ÉTÉ-1' }, { name: 'Plain', code: 'P' }]);
    for (const search of ['ünïcode', 'ÜNÏCODE', 'été tee', 'ÉTÉ TEE', 'été-1']) {
      const response = await api.get(`/brands/acme/products${qs({ search })}`);
      expect(ids(response), search).to.deep.equal([accented!.id]);
    }
  });

  it('combines search with code, status and category', async () => {
    const tops = await insertOne('categories', api.brand.id, { name: 'Tops' });
    const products = await insert('products', api.brand.id, [
      { name: 'Linen Tee', code: 'LT-1', status: 'approved', categoryId: tops.id },
      { name: 'Linen Tee', code: 'LT-2', status: 'draft', categoryId: tops.id },
      { name: 'Linen Pant', code: 'LP-1', status: 'approved' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ search: 'linen', status: 'approved' }, [0, 2]],
      [{ search: 'linen', category: tops.id }, [0, 1]],
      [{ search: 'tee', status: 'approved', category: tops.id }, [0]],
      [{ search: 'tee', code: 'LT-2' }, [1]],
      [{ search: 'pant', category: tops.id }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/products${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => products[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('validates the string filters (1 to 255 characters; exact ones any of up to 100 values, search once)', async () => {
    for (const name of ['code', 'status', 'search']) await expectStringFilterLength(api, 'products', name);
    for (const name of ['code', 'status']) await expectAnyOf(api, 'products', name, 'x');
    expectError(await api.get('/brands/acme/products?search=x&search=y'), 400, 'invalid_parameter', ['search']);
    await expectAnyOf(api, 'products', 'category', randomUUID());
    const long = await insertOne('products', api.brand.id, { name: `${'n'.repeat(300)}`, code: 'c'.repeat(255) });
    expect(ids(await api.get(`/brands/acme/products${qs({ search: 'N'.repeat(255) })}`))).to.deep.equal([long.id]);
    expect(ids(await api.get(`/brands/acme/products${qs({ code: 'c'.repeat(255) })}`))).to.deep.equal([long.id]);
  });

  it('includes versions and relations in createdAt, id order, [] when none, never of another brand', async () => {
    const [tee, pant, lonely] = await insert('products', api.brand.id, [{ code: 'TEE' }, { code: 'PANT' }, { code: 'LONELY' }]);
    const versions = await insert('product-versions', api.brand.id, [
      { productId: tee!.id, versionNumber: 2, name: 'v2', status: 'draft', createdAt: '2026-06-01T00:00:00Z', updatedAt: '2026-06-01T00:00:00Z' },
      { productId: tee!.id, versionNumber: 1, name: 'v1', status: 'final', createdAt: '2026-05-01T00:00:00.000002Z', updatedAt: '2026-05-02T00:00:00Z' },
      { productId: tee!.id, versionNumber: 3, name: 'v1b', createdAt: '2026-05-01T00:00:00.000002Z', updatedAt: '2026-05-02T00:00:00Z' },
      { productId: pant!.id, versionNumber: 1, name: 'pant v1', createdAt: '2026-05-03T00:00:00Z', updatedAt: '2026-05-03T00:00:00Z' },
    ]);
    const userId = randomUUID();
    const relations = await insert('product-relations', api.brand.id, [
      { productId: tee!.id, relatedProductId: pant!.id, relationType: 'matching', createdByUserId: userId, createdAt: '2026-07-02T00:00:00Z' },
      { productId: tee!.id, relatedProductId: lonely!.id, relationType: 'replacement', createdAt: '2026-07-01T00:00:00Z' },
      { productId: pant!.id, relatedProductId: tee!.id, relationType: 'matching', createdAt: '2026-07-03T00:00:00Z' },
    ]);
    // Rows of another brand that point at acme's products are not acme's.
    await insert('product-versions', api.other.id, [{ productId: tee!.id, name: 'foreign' }]);
    await insert('product-relations', api.other.id, [{ productId: tee!.id, relatedProductId: pant!.id, relationType: 'foreign' }]);

    const response = await api.get('/brands/acme/products?include=versions,relations');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal([tee!.id, pant!.id, lonely!.id]);
    const [t, p, l] = response.body.items;
    // The declared fields first, in order; then the embedded records (their order is not part of the contract).
    expect(Object.keys(t).slice(0, FIELDS.length)).to.deep.equal(FIELDS);
    expect(Object.keys(t).slice(FIELDS.length)).to.have.members(['versions', 'relations']);
    expect(t.versions.map((v: { id: string }) => v.id)).to.deep.equal(listOrder(versions.slice(0, 3)).map((v) => v.id));
    expect(t.versions[2]).to.deep.equal({
      id: versions[0]!.id, productId: tee!.id, versionNumber: 2, name: 'v2', status: 'draft',
      createdAt: '2026-06-01T00:00:00.000Z', updatedAt: '2026-06-01T00:00:00.000Z',
    });
    expect(t.relations).to.deep.equal([
      { id: relations[1]!.id, productId: tee!.id, relatedProductId: lonely!.id, relationType: 'replacement', createdByUserId: null, createdAt: '2026-07-01T00:00:00.000Z' },
      { id: relations[0]!.id, productId: tee!.id, relatedProductId: pant!.id, relationType: 'matching', createdByUserId: userId, createdAt: '2026-07-02T00:00:00.000Z' },
    ]);
    expect(p.versions.map((v: { id: string }) => v.id)).to.deep.equal([versions[3]!.id]);
    expect(p.relations.map((r: { id: string }) => r.id)).to.deep.equal([relations[2]!.id]);
    expect(l.versions).to.deep.equal([]);
    expect(l.relations).to.deep.equal([]);

    // One include alone, and on the single-record route.
    const onlyVersions = await api.get(`/brands/acme/products/${tee!.id}?include=versions`);
    expect(onlyVersions.status).to.equal(200);
    expect(onlyVersions.body).to.deep.equal({ ...Object.fromEntries(FIELDS.map((f) => [f, t[f]])), versions: t.versions });
    expect(onlyVersions.body).to.not.have.property('relations');
    const both = await api.get(`/brands/acme/products/${tee!.id}?include=relations,versions`);
    expect(both.body.versions).to.deep.equal(t.versions);
    expect(both.body.relations).to.deep.equal(t.relations);
    const lonelyOne = await api.get(`/brands/acme/products/${lonely!.id}?include=versions,relations`);
    expect(lonelyOne.body.versions).to.deep.equal([]);
    expect(lonelyOne.body.relations).to.deep.equal([]);
  });
});
