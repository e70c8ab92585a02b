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

describe('GET /brands/{brand}/dimension-groups', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'dimension-groups',
    includes: [],
    filter: { name: 'name', value: 'Alpha sizes' },
    make: (brandId) => insertOne('dimension-groups', brandId, { name: 'Alpha sizes', defaultCurveId: randomUUID() }),
  });

  it('returns exactly id, name, defaultCurveId, createdAt, updatedAt', async () => {
    const curve = randomUUID();
    const [group, bare] = await insert('dimension-groups', api.brand.id, [
      { name: 'Alpha sizes', defaultCurveId: curve, createdAt: '2026-03-01T09:30:00.100Z', updatedAt: '2026-03-01T09:30:00.200Z' },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/dimension-groups');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: group!.id, name: 'Alpha sizes', defaultCurveId: curve, createdAt: '2026-03-01T09:30:00.100Z', updatedAt: '2026-03-01T09:30:00.200Z' },
        { id: bare!.id, name: null, defaultCurveId: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(['id', 'name', 'defaultCurveId', 'createdAt', 'updatedAt']);
    const one = await api.get(`/brands/acme/dimension-groups/${group!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
  });

  it('filters by exact name and by defaultCurveId, combined with AND', async () => {
    const [c1, c2] = [randomUUID(), randomUUID()];
    const groups = await insert('dimension-groups', api.brand.id, [
      { name: 'Alpha sizes', defaultCurveId: c1 },
      { name: 'alpha sizes', defaultCurveId: c1 },
      { name: 'Alpha sizes', defaultCurveId: c2 },
      { name: 'Numeric (EU)', defaultCurveId: c2 },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ name: 'Alpha sizes' }, [0, 2]],
      [{ name: 'alpha sizes' }, [1]],
      [{ name: 'Numeric (EU)' }, [3]],
      [{ name: 'Numeric' }, []],
      [{ defaultCurveId: c1 }, [0, 1]],
      [{ defaultCurveId: c2, name: 'Alpha sizes' }, [2]],
      [{ defaultCurveId: c2, name: 'alpha sizes' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/dimension-groups${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => groups[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    await expectUuidFilter(api, 'dimension-groups', 'defaultCurveId');
    await expectStringFilterLength(api, 'dimension-groups', 'name');
    await expectAnyOf(api, 'dimension-groups', 'defaultCurveId', c1);
  });
});
