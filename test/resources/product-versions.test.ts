import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import {
  describeCommonRules,
  expectAnyOf,
  expectStringFilterLength,
  expectUuidFilter,
  ids,
  insertOne,
  listOrder,
  qs,
  useApi,
} from './helpers.ts';

const FIELDS = ['id', 'productId', 'versionNumber', 'name', 'status', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/product-versions', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'product-versions',
    includes: ['product', 'measurementTables'],
    filter: { name: 'status', value: 'draft' },
    make: async (brandId) => {
      const product = await insertOne('products', brandId, { code: 'TEE' });
      return insertOne('product-versions', brandId, { productId: product.id, versionNumber: 1, name: 'v1', status: 'draft' });
    },
  });

  it('returns exactly the declared fields in order, integers as numbers, nulls where null', async () => {
    const product = await insertOne('products', api.brand.id, { code: 'TEE' });
    const [v1, bare] = await insert('product-versions', api.brand.id, [
      { productId: product.id, versionNumber: 1, name: 'First fit', status: 'approved', createdAt: '2026-03-01T09:30:00.010Z', updatedAt: '2026-03-01T09:30:00.020Z' },
      { createdAt: '2026-03-01T09:30:01Z', updatedAt: '2026-03-01T09:30:01Z' },
    ]);
    const response = await api.get('/brands/acme/product-versions');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: v1!.id, productId: product.id, versionNumber: 1, name: 'First fit', status: 'approved', createdAt: '2026-03-01T09:30:00.010Z', updatedAt: '2026-03-01T09:30:00.020Z' },
        { id: bare!.id, productId: null, versionNumber: null, name: null, status: null, createdAt: '2026-03-01T09:30:01.000Z', updatedAt: '2026-03-01T09:30:01.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
  });

  it('filters by productId and by exact status, alone and together', async () => {
    const [tee, pant] = await insert('products', api.brand.id, [{ code: 'TEE' }, { code: 'PANT' }]);
    const versions = await insert('product-versions', api.brand.id, [
      { productId: tee!.id, status: 'draft' },
      { productId: tee!.id, status: 'approved' },
      { productId: pant!.id, status: 'draft' },
      { productId: pant!.id, status: 'Draft' },
      { status: 'draft' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ productId: tee!.id }, [0, 1]],
      [{ productId: pant!.id }, [2, 3]],
      [{ status: 'draft' }, [0, 2, 4]],
      [{ status: 'Draft' }, [3]],
      [{ productId: pant!.id, status: 'draft' }, [2]],
      [{ productId: tee!.id, status: 'Draft' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/product-versions${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => versions[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    await expectUuidFilter(api, 'product-versions', 'productId');
    await expectStringFilterLength(api, 'product-versions', 'status');
    await expectAnyOf(api, 'product-versions', 'status', 'draft');
  });

  it('includes the product (object or null) and its measurement tables (createdAt, id order, [] when none)', async () => {
    const tops = await insertOne('categories', api.brand.id, { name: 'Tops' });
    const tee = await insertOne('products', api.brand.id, {
      code: 'TEE', name: 'Tee', status: 'approved', categoryId: tops.id, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z',
    });
    const foreignProduct = await insertOne('products', api.other.id, { code: 'THEIRS' });
    const [withTables, noProduct, crossed] = await insert('product-versions', api.brand.id, [
      { productId: tee.id, versionNumber: 1 },
      { versionNumber: 2 },
      { productId: foreignProduct.id, versionNumber: 3 },
    ]);
    const tables = await insert('measurement-tables', api.brand.id, [
      { productVersionId: withTables!.id, name: 'Late', sizeSpecs: { S: { chest: 50 } }, createdAt: '2026-08-01T00:00:00Z', updatedAt: '2026-08-01T00:00:00Z' },
      { productVersionId: withTables!.id, name: 'Early', sizeSpecs: [1, 2], createdAt: '2026-07-01T00:00:00.000001Z', updatedAt: '2026-07-01T00:00:00Z' },
      { productVersionId: withTables!.id, name: 'Early tie', sizeSpecs: null, createdAt: '2026-07-01T00:00:00.000001Z', updatedAt: '2026-07-01T00:00:00Z' },
    ]);
    // A table of another brand pointing at acme's version is not acme's.
    await insert('measurement-tables', api.other.id, [{ productVersionId: withTables!.id, name: 'Foreign' }]);

    const response = await api.get('/brands/acme/product-versions?include=product,measurementTables');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal([withTables!.id, noProduct!.id, crossed!.id]);
    const [w, n, c] = response.body.items;
    // The declared fields first, in order; then the embedded records (their order is not part of the contract).
    expect(Object.keys(w).slice(0, FIELDS.length)).to.deep.equal(FIELDS);
    expect(Object.keys(w).slice(FIELDS.length)).to.have.members(['product', 'measurementTables']);
    expect(w.product).to.deep.equal({
      id: tee.id, code: 'TEE', name: 'Tee', status: 'approved', category: 'Tops', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z',
    });
    expect(w.measurementTables.map((t: { id: string }) => t.id)).to.deep.equal(listOrder(tables).map((t) => t.id));
    expect(w.measurementTables.find((t: { id: string }) => t.id === tables[0]!.id)).to.deep.equal({
      id: tables[0]!.id, productVersionId: withTables!.id, name: 'Late', sizeSpecs: { S: { chest: 50 } },
      createdAt: '2026-08-01T00:00:00.000Z', updatedAt: '2026-08-01T00:00:00.000Z',
    });
    expect(n.product).to.equal(null);
    expect(n.measurementTables).to.deep.equal([]);
    expect(c.product).to.equal(null);
    expect(c.measurementTables).to.deep.equal([]);

    const one = await api.get(`/brands/acme/product-versions/${withTables!.id}?include=measurementTables`);
    expect(one.status).to.equal(200);
    expect(one.body.measurementTables).to.deep.equal(w.measurementTables);
    expect(one.body).to.not.have.property('product');
    const crossedOne = await api.get(`/brands/acme/product-versions/${crossed!.id}?include=product`);
    expect(crossedOne.body.product).to.equal(null);
    expect(crossedOne.text).to.not.contain('THEIRS');
  });
});
