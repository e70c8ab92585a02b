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
  qs,
  useApi,
} from './helpers.ts';

const FIELDS = ['id', 'productVersionId', 'name', 'sizeSpecs', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/measurement-tables', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'measurement-tables',
    includes: ['productVersion'],
    filter: { name: 'name', value: 'Body' },
    make: async (brandId) => {
      const product = await insertOne('products', brandId, { code: 'TEE' });
      const version = await insertOne('product-versions', brandId, { productId: product.id });
      return insertOne('measurement-tables', brandId, { productVersionId: version.id, name: 'Body', sizeSpecs: { S: { chest: 48 } } });
    },
  });

  it('returns exactly the declared fields, sizeSpecs as the JSON value stored', async () => {
    const version = await insertOne('product-versions', api.brand.id, {});
    const specs: unknown[] = [
      { S: { chest: '48.5', length: 70 }, M: { chest: 51, notes: null, tags: ['a', 'b'] } },
      [{ size: 'S', chest: 48 }, { size: 'M', chest: 51 }],
      [],
      {},
      'free text',
      42.5,
      true,
      null,
      { nested: { deeper: { deepest: [1, [2, [3]]] } }, 'key with spaces': 'ü € "quoted"' },
    ];
    const tables = await insert('measurement-tables', api.brand.id, specs.map((sizeSpecs, i) => ({
      productVersionId: i === 0 ? version.id : null,
      name: i === 1 ? null : `Table ${i}`,
      sizeSpecs,
      createdAt: `2026-03-01T09:30:0${i}.25Z`,
      updatedAt: `2026-03-02T09:30:0${i}Z`,
    })));
    const response = await api.get('/brands/acme/measurement-tables');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: tables.map((table, i) => ({
        id: table.id,
        productVersionId: i === 0 ? version.id : null,
        name: i === 1 ? null : `Table ${i}`,
        sizeSpecs: specs[i],
        createdAt: `2026-03-01T09:30:0${i}.250Z`,
        updatedAt: `2026-03-02T09:30:0${i}.000Z`,
      })),
      nextCursor: null,
      totalItems: specs.length,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    for (const [i, table] of tables.entries()) {
      const one = await api.get(`/brands/acme/measurement-tables/${table.id}`);
      expect(one.status).to.equal(200);
      expect(one.body.sizeSpecs, `table ${i}`).to.deep.equal(specs[i]);
      expect(one.body).to.have.property('sizeSpecs');
    }
  });

  it('filters by exact name, by productVersionId, and by productId through the version', async () => {
    const [tee, pant] = await insert('products', api.brand.id, [{ code: 'TEE' }, { code: 'PANT' }]);
    const [teeV1, teeV2, pantV1, orphanV] = await insert('product-versions', api.brand.id, [
      { productId: tee!.id }, { productId: tee!.id }, { productId: pant!.id }, {},
    ]);
    const tables = await insert('measurement-tables', api.brand.id, [
      { productVersionId: teeV1!.id, name: 'Body' }, // 0
      { productVersionId: teeV2!.id, name: 'Body' }, // 1
      { productVersionId: teeV2!.id, name: 'body' }, // 2
      { productVersionId: pantV1!.id, name: 'Body' }, // 3
      { productVersionId: orphanV!.id, name: 'Body ' }, // 4
      { name: 'Loose' }, // 5
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ name: 'Body' }, [0, 1, 3]],
      [{ name: 'body' }, [2]],
      [{ name: 'Body ' }, [4]],
      [{ productVersionId: teeV2!.id }, [1, 2]],
      [{ productVersionId: orphanV!.id }, [4]],
      [{ productId: tee!.id }, [0, 1, 2]],
      [{ productId: pant!.id }, [3]],
      [{ productId: tee!.id, name: 'Body' }, [0, 1]],
      [{ productId: tee!.id, productVersionId: teeV2!.id }, [1, 2]],
      [{ productId: pant!.id, productVersionId: teeV2!.id }, []],
      [{ productId: tee!.id, productVersionId: teeV1!.id, name: 'body' }, []],
      // A version id is not a product id.
      [{ productId: teeV1!.id }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/measurement-tables${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => tables[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('does not match productId through a version of another brand', async () => {
    const product = await insertOne('products', api.brand.id, { code: 'TEE' });
    const foreignVersion = await insertOne('product-versions', api.other.id, { productId: product.id });
    await insertOne('measurement-tables', api.brand.id, { productVersionId: foreignVersion.id, name: 'Crossed' });
    const theirs = await insertOne('measurement-tables', api.other.id, { productVersionId: foreignVersion.id, name: 'Theirs' });
    const response = await api.get(`/brands/acme/measurement-tables?productId=${product.id}`);
    expect(response.body).to.deep.equal({ items: [], nextCursor: null, totalItems: 0 });
    const other = await api.server.request(`/brands/globex/measurement-tables?productId=${product.id}`, { key: api.otherKey });
    expect(ids(other)).to.deep.equal([theirs.id]);
  });

  it('validates the filters', async () => {
    await expectUuidFilter(api, 'measurement-tables', 'productVersionId');
    await expectUuidFilter(api, 'measurement-tables', 'productId');
    await expectStringFilterLength(api, 'measurement-tables', 'name');
    await expectAnyOf(api, 'measurement-tables', 'productId', randomUUID());
    // sizeSpecs is no filter.
    expectError(await api.get('/brands/acme/measurement-tables?sizeSpecs=x'), 400, 'invalid_parameter', ['sizeSpecs']);
  });

  it('includes the product version as an object, null when absent or of another brand', async () => {
    const product = await insertOne('products', api.brand.id, { code: 'TEE' });
    const version = await insertOne('product-versions', api.brand.id, {
      productId: product.id, versionNumber: 4, name: 'Fit 4', status: 'approved', createdAt: '2026-02-01T00:00:00Z', updatedAt: '2026-02-02T00:00:00Z',
    });
    const foreignVersion = await insertOne('product-versions', api.other.id, { name: 'Foreign version' });
    const [withVersion, without, crossed] = await insert('measurement-tables', api.brand.id, [
      { productVersionId: version.id, name: 'Body' },
      { name: 'Loose' },
      { productVersionId: foreignVersion.id, name: 'Crossed' },
    ]);
    const expected = {
      id: version.id, productId: product.id, versionNumber: 4, name: 'Fit 4', status: 'approved',
      createdAt: '2026-02-01T00:00:00.000Z', updatedAt: '2026-02-02T00:00:00.000Z',
    };
    const response = await api.get('/brands/acme/measurement-tables?include=productVersion');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal([withVersion!.id, without!.id, crossed!.id]);
    expect(response.body.items.map((t: { productVersion: unknown }) => t.productVersion)).to.deep.equal([expected, null, null]);
    expect(Object.keys(response.body.items[0])).to.deep.equal([...FIELDS, 'productVersion']);
    expect(response.text).to.not.contain('Foreign version');
    const one = await api.get(`/brands/acme/measurement-tables/${withVersion!.id}?include=productVersion`);
    expect(one.body.productVersion).to.deep.equal(expected);
  });
});
