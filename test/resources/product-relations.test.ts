import { randomUUID } from 'node:crypto';
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

const FIELDS = ['id', 'productId', 'relatedProductId', 'relationType', 'createdByUserId', 'createdAt'];

describe('GET /brands/{brand}/product-relations', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'product-relations',
    includes: ['product', 'relatedProduct'],
    filter: { name: 'relationType', value: 'matching' },
    make: async (brandId) => {
      const [a, b] = await insert('products', brandId, [{ code: 'A' }, { code: 'B' }]);
      return insertOne('product-relations', brandId, { productId: a!.id, relatedProductId: b!.id, relationType: 'matching' });
    },
  });

  it('returns exactly the spec fields in order (no updatedAt), nulls where null', async () => {
    const [a, b] = await insert('products', api.brand.id, [{ code: 'A' }, { code: 'B' }]);
    const userId = randomUUID();
    const [full, bare] = await insert('product-relations', api.brand.id, [
      { productId: a!.id, relatedProductId: b!.id, relationType: 'matching', createdByUserId: userId, createdAt: '2026-03-01T09:30:00.123456Z' },
      { createdAt: '2026-03-01T09:30:01Z' },
    ]);
    const response = await api.get('/brands/acme/product-relations');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: full!.id, productId: a!.id, relatedProductId: b!.id, relationType: 'matching', createdByUserId: userId, createdAt: '2026-03-01T09:30:00.123Z' },
        { id: bare!.id, productId: null, relatedProductId: null, relationType: null, createdByUserId: null, createdAt: '2026-03-01T09:30:01.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    const one = await api.get(`/brands/acme/product-relations/${full!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
  });

  it('filters by productId, relatedProductId and exact relationType, combined with AND', async () => {
    const [a, b, c] = await insert('products', api.brand.id, [{ code: 'A' }, { code: 'B' }, { code: 'C' }]);
    const relations = await insert('product-relations', api.brand.id, [
      { productId: a!.id, relatedProductId: b!.id, relationType: 'matching' },
      { productId: a!.id, relatedProductId: c!.id, relationType: 'replacement' },
      { productId: b!.id, relatedProductId: a!.id, relationType: 'matching' },
      { productId: c!.id, relatedProductId: b!.id, relationType: 'Matching' },
      { productId: c!.id, relatedProductId: b!.id, relationType: 'matching piece' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ productId: a!.id }, [0, 1]],
      [{ relatedProductId: b!.id }, [0, 3, 4]],
      [{ relatedProductId: a!.id }, [2]],
      [{ relationType: 'matching' }, [0, 2]],
      [{ relationType: 'Matching' }, [3]],
      [{ relationType: 'matching piece' }, [4]],
      [{ relationType: 'match' }, []],
      [{ productId: a!.id, relationType: 'matching' }, [0]],
      [{ productId: c!.id, relatedProductId: b!.id }, [3, 4]],
      [{ productId: c!.id, relatedProductId: b!.id, relationType: 'Matching' }, [3]],
      [{ productId: b!.id, relatedProductId: b!.id }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/product-relations${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => relations[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('validates the filters', async () => {
    await expectUuidFilter(api, 'product-relations', 'productId');
    await expectUuidFilter(api, 'product-relations', 'relatedProductId');
    await expectStringFilterLength(api, 'product-relations', 'relationType');
    await expectAnyOf(api, 'product-relations', 'relatedProductId', randomUUID());
    await expectAnyOf(api, 'product-relations', 'relationType', 'matching');
  });

  it('includes product and relatedProduct as objects, null when absent or of another brand', async () => {
    const tops = await insertOne('categories', api.brand.id, { name: 'Tops' });
    const [a, b] = await insert('products', api.brand.id, [
      { code: 'A', name: 'Alpha', status: 'approved', categoryId: tops.id, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
      { code: 'B', name: 'Beta', createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-03T00:00:00Z' },
    ]);
    const foreign = await insertOne('products', api.other.id, { code: 'THEIRS', name: 'Foreign' });
    const [ab, aNone, crossed] = await insert('product-relations', api.brand.id, [
      { productId: a!.id, relatedProductId: b!.id, relationType: 'matching' },
      { productId: a!.id, relationType: 'orphan' },
      { productId: foreign.id, relatedProductId: a!.id, relationType: 'crossed' },
    ]);
    const alpha = { id: a!.id, code: 'A', name: 'Alpha', status: 'approved', category: 'Tops', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
    const beta = { id: b!.id, code: 'B', name: 'Beta', status: null, category: null, createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-03T00:00:00.000Z' };

    const response = await api.get('/brands/acme/product-relations?include=product,relatedProduct');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal([ab!.id, aNone!.id, crossed!.id]);
    const pairs = response.body.items.map((r: { product: unknown; relatedProduct: unknown }) => [r.product, r.relatedProduct]);
    expect(pairs).to.deep.equal([[alpha, beta], [alpha, null], [null, alpha]]);
    // The declared fields first, in order; then the embedded records (their order is not part of the contract).
    expect(Object.keys(response.body.items[0]).slice(0, FIELDS.length)).to.deep.equal(FIELDS);
    expect(Object.keys(response.body.items[0]).slice(FIELDS.length)).to.have.members(['product', 'relatedProduct']);
    expect(response.text).to.not.contain('THEIRS');

    const one = await api.get(`/brands/acme/product-relations/${ab!.id}?include=relatedProduct`);
    expect(one.status).to.equal(200);
    expect(one.body.relatedProduct).to.deep.equal(beta);
    expect(one.body).to.not.have.property('product');
    const crossedOne = await api.get(`/brands/acme/product-relations/${crossed!.id}?include=product`);
    expect(crossedOne.body.product).to.equal(null);
  });
});
