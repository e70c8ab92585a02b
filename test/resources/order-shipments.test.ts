import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import { describeCommonRules, expectAnyOf, expectUuidFilter, ids, insertOne, qs, useApi } from './helpers.ts';

describe('GET /brands/{brand}/order-shipments', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'order-shipments',
    includes: [],
    filter: { name: 'orderId', value: '6f1c1a0e-4a4e-4f55-9a55-0d3b0d4f9a11' },
    make: (brandId) => insertOne('order-shipments', brandId, { orderId: randomUUID(), shipmentId: randomUUID() }),
  });

  it('returns exactly id, orderId, shipmentId, createdAt, updatedAt', async () => {
    const [orderId, shipmentId] = [randomUUID(), randomUUID()];
    const [link, bare] = await insert('order-shipments', api.brand.id, [
      { orderId, shipmentId, createdAt: '2026-03-01T09:30:00.999999Z', updatedAt: '2026-03-01T09:30:01Z' },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/order-shipments');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: link!.id, orderId, shipmentId, createdAt: '2026-03-01T09:30:00.999Z', updatedAt: '2026-03-01T09:30:01.000Z' },
        { id: bare!.id, orderId: null, shipmentId: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(['id', 'orderId', 'shipmentId', 'createdAt', 'updatedAt']);
    const one = await api.get(`/brands/acme/order-shipments/${link!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
  });

  it('filters by orderId and shipmentId, combined with AND', async () => {
    const [o1, o2, s1, s2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const links = await insert('order-shipments', api.brand.id, [
      { orderId: o1, shipmentId: s1 },
      { orderId: o1, shipmentId: s2 },
      { orderId: o2, shipmentId: s1 },
    ]);
    await insert('order-shipments', api.other.id, [{ orderId: o1, shipmentId: s1 }]);
    const cases: [Record<string, string>, number[]][] = [
      [{ orderId: o1 }, [0, 1]],
      [{ shipmentId: s1 }, [0, 2]],
      [{ orderId: o2, shipmentId: s1 }, [2]],
      [{ orderId: o2, shipmentId: s2 }, []],
      [{ orderId: s1 }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/order-shipments${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => links[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    for (const name of ['orderId', 'shipmentId']) {
      await expectUuidFilter(api, 'order-shipments', name);
      await expectAnyOf(api, 'order-shipments', name, o1);
    }
  });
});
