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

const FIELDS = ['id', 'optionId', 'name', 'code', 'status', 'sequence', 'hexCode', 'swatchVersion', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/option-values', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'option-values',
    includes: ['option'],
    filter: { name: 'code', value: 'NVY' },
    make: async (brandId) => {
      const option = await insertOne('options', brandId, { name: 'Colour' });
      return insertOne('option-values', brandId, { optionId: option.id, name: 'Navy', code: 'NVY', status: 'active', sequence: 1 });
    },
  });

  it('returns exactly the declared fields in order, integers as numbers, nulls where null', async () => {
    const option = await insertOne('options', api.brand.id, { name: 'Colour' });
    const [full, empty] = await insert('option-values', api.brand.id, [
      {
        optionId: option.id, name: 'Navy', code: 'NVY', status: 'active', sequence: 0, hexCode: '#1F2A44', swatchVersion: 2147483647,
        createdAt: '2026-03-01T09:30:00.123456Z', updatedAt: '2026-03-05T10:00:00.000001Z',
      },
      { sequence: -3, createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/option-values');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        {
          id: full!.id, optionId: option.id, name: 'Navy', code: 'NVY', status: 'active', sequence: 0, hexCode: '#1F2A44',
          swatchVersion: 2147483647, createdAt: '2026-03-01T09:30:00.123Z', updatedAt: '2026-03-05T10:00:00.000Z',
        },
        {
          id: empty!.id, optionId: null, name: null, code: null, status: null, sequence: -3, hexCode: null,
          swatchVersion: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z',
        },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    const one = await api.get(`/brands/acme/option-values/${full!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
    expect(Object.keys(one.body)).to.deep.equal(FIELDS);
  });

  it('filters name, code and status exactly and case-sensitively', async () => {
    const values = await insert('option-values', api.brand.id, [
      { name: 'Navy Blue', code: 'NVY', status: 'active' },
      { name: 'navy blue', code: 'nvy', status: 'Active' },
      { name: 'Navy', code: 'NVY ', status: 'active ' },
      { name: 'Navy Blue.', code: 'N.V', status: 'archived' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ name: 'Navy Blue' }, [0]],
      [{ name: 'navy blue' }, [1]],
      [{ name: 'Navy' }, [2]],
      [{ name: 'Navy Blue.' }, [3]],
      [{ name: 'NAVY BLUE' }, []],
      [{ code: 'NVY' }, [0]],
      [{ code: 'NVY ' }, [2]],
      [{ code: 'N.V' }, [3]],
      [{ code: 'N_V' }, []],
      [{ code: 'N%' }, []],
      [{ status: 'active' }, [0]],
      [{ status: 'Active' }, [1]],
      [{ status: 'ACTIVE' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/option-values${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => values[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('filters by optionId and by id', async () => {
    const [colour, size] = await insert('options', api.brand.id, [{ name: 'Colour' }, { name: 'Size' }]);
    const values = await insert('option-values', api.brand.id, [
      { optionId: colour!.id, name: 'Navy' },
      { optionId: size!.id, name: 'M' },
      { optionId: colour!.id, name: 'Red' },
      { name: 'Orphan' },
    ]);
    const byOption = await api.get(`/brands/acme/option-values?optionId=${colour!.id}`);
    expect(ids(byOption)).to.deep.equal([values[0]!.id, values[2]!.id]);
    expect(byOption.body.totalItems).to.equal(2);
    const byId = await api.get(`/brands/acme/option-values?id=${values[1]!.id}`);
    expect(ids(byId)).to.deep.equal([values[1]!.id]);
    expect(byId.body.totalItems).to.equal(1);
    // The option id itself is no value id.
    expect(ids(await api.get(`/brands/acme/option-values?id=${colour!.id}`))).to.deep.equal([]);
  });

  it('does not find a value of another brand by the id filter', async () => {
    const theirs = await insertOne('option-values', api.other.id, { name: 'Navy', code: 'NVY' });
    const response = await api.get(`/brands/acme/option-values?id=${theirs.id}`);
    expect(response.body).to.deep.equal({ items: [], nextCursor: null, totalItems: 0 });
    const byCode = await api.get('/brands/acme/option-values?code=NVY');
    expect(byCode.body.totalItems).to.equal(0);
  });

  it('combines filters with AND and counts the matches', async () => {
    const [colour, size] = await insert('options', api.brand.id, [{ name: 'Colour' }, { name: 'Size' }]);
    const values = await insert('option-values', api.brand.id, [
      { optionId: colour!.id, name: 'Navy', code: 'NVY', status: 'active' },
      { optionId: colour!.id, name: 'Navy', code: 'NVY', status: 'archived' },
      { optionId: size!.id, name: 'Navy', code: 'NVY', status: 'active' },
      { optionId: colour!.id, name: 'Red', code: 'RED', status: 'active' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ optionId: colour!.id, status: 'active' }, [0, 3]],
      [{ optionId: colour!.id, status: 'active', code: 'NVY' }, [0]],
      [{ name: 'Navy', status: 'active' }, [0, 2]],
      [{ name: 'Navy', code: 'RED' }, []],
      [{ id: values[1]!.id, status: 'archived' }, [1]],
      [{ id: values[1]!.id, status: 'active' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/option-values${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => values[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('validates the filters: UUIDs lower-case, strings 1 to 255 characters, given once', async () => {
    await expectUuidFilter(api, 'option-values', 'optionId');
    await expectUuidFilter(api, 'option-values', 'id');
    for (const name of ['name', 'code', 'status']) {
      await expectStringFilterLength(api, 'option-values', name);
      await expectAnyOf(api, 'option-values', name, 'x');
    }
    await expectAnyOf(api, 'option-values', 'optionId', randomUUID());
    // Every offending parameter is named.
    expectError(await api.get('/brands/acme/option-values?optionId=nope&code=&limit=0'), 400, 'invalid_parameter', ['optionId', 'code', 'limit']);
  });

  it('includes the option (an object, or null when there is none or it is not the brand\'s)', async () => {
    const option = await insertOne('options', api.brand.id, { name: 'Colour', createdAt: '2026-02-01T00:00:00Z', updatedAt: '2026-02-02T00:00:00Z' });
    const foreign = await insertOne('options', api.other.id, { name: 'Their colour' });
    const values = await insert('option-values', api.brand.id, [
      { optionId: option.id, name: 'Navy' },
      { name: 'Orphan' },
      { optionId: foreign.id, name: 'Crossed' },
      { optionId: option.id, name: 'Red' },
    ]);
    const expectedOption = { id: option.id, name: 'Colour', createdAt: '2026-02-01T00:00:00.000Z', updatedAt: '2026-02-02T00:00:00.000Z' };
    const response = await api.get('/brands/acme/option-values?include=option');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal(values.map((v) => v.id));
    expect(response.body.items.map((item: { option: unknown }) => item.option)).to.deep.equal([expectedOption, null, null, expectedOption]);
    // The embedded record comes after the declared fields.
    expect(Object.keys(response.body.items[0])).to.deep.equal([...FIELDS, 'option']);
    const one = await api.get(`/brands/acme/option-values/${values[0]!.id}?include=option`);
    expect(one.status).to.equal(200);
    expect(one.body.option).to.deep.equal(expectedOption);
    const crossed = await api.get(`/brands/acme/option-values/${values[2]!.id}?include=option`);
    expect(crossed.body.option).to.equal(null);
  });
});
