import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import { describeCommonRules, expectAnyOf, expectUuidFilter, ids, insertOne, qs, useApi } from './helpers.ts';

const FIELDS = ['id', 'goodsReceiptId', 'orderItemId', 'skuId', 'qtyReceived', 'createdAt', 'updatedAt', 'deletedAt'];

describe('GET /brands/{brand}/goods-receipt-lines', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'goods-receipt-lines',
    includes: [],
    filter: { name: 'skuId', value: '6f1c1a0e-4a4e-4f55-9a55-0d3b0d4f9a11' },
    make: (brandId) => insertOne('goods-receipt-lines', brandId, { goodsReceiptId: randomUUID(), skuId: randomUUID(), qtyReceived: '12.500' }),
  });

  it('returns exactly the spec fields in order, qtyReceived as a decimal string keeping its scale', async () => {
    const [receipt, orderItem, sku] = [randomUUID(), randomUUID(), randomUUID()];
    const [full, bare] = await insert('goods-receipt-lines', api.brand.id, [
      { goodsReceiptId: receipt, orderItemId: orderItem, skuId: sku, qtyReceived: '40.50', createdAt: '2026-03-01T09:30:00.000500Z', updatedAt: '2026-03-01T09:30:00.001Z' },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/goods-receipt-lines');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: full!.id, goodsReceiptId: receipt, orderItemId: orderItem, skuId: sku, qtyReceived: '40.50', createdAt: '2026-03-01T09:30:00.000Z', updatedAt: '2026-03-01T09:30:00.001Z', deletedAt: null },
        { id: bare!.id, goodsReceiptId: null, orderItemId: null, skuId: null, qtyReceived: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z', deletedAt: null },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    for (const [qty, expected] of [['0', '0'], ['7.000', '7.000'], ['0.001', '0.001'], ['1000000.10', '1000000.10']]) {
      const line = await insertOne('goods-receipt-lines', api.brand.id, { qtyReceived: qty });
      const one = await api.get(`/brands/acme/goods-receipt-lines/${line.id}`);
      expect(one.body.qtyReceived).to.equal(expected);
      expect(one.body.qtyReceived).to.be.a('string');
    }
  });

  it('still lists, counts, filters and returns by id a deleted line, with deletedAt filled in', async () => {
    const receipt = randomUUID();
    const [kept, deleted] = await insert('goods-receipt-lines', api.brand.id, [
      { goodsReceiptId: receipt, qtyReceived: '1' },
      { goodsReceiptId: receipt, qtyReceived: '2', deletedAt: '2026-04-01T12:00:00.123789Z' },
    ]);
    const list = await api.get('/brands/acme/goods-receipt-lines');
    expect(ids(list)).to.deep.equal([kept!.id, deleted!.id]);
    expect(list.body.totalItems).to.equal(2);
    expect(list.body.items[1].deletedAt).to.equal('2026-04-01T12:00:00.123Z');
    expect(list.body.items[0].deletedAt).to.equal(null);
    const filtered = await api.get(`/brands/acme/goods-receipt-lines?goodsReceiptId=${receipt}`);
    expect(ids(filtered)).to.deep.equal([kept!.id, deleted!.id]);
    expect(filtered.body.totalItems).to.equal(2);
    const one = await api.get(`/brands/acme/goods-receipt-lines/${deleted!.id}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(list.body.items[1]);
    expect(Object.keys(one.body)).to.deep.equal(FIELDS);
  });

  it('filters by goodsReceiptId, orderItemId and skuId, combined with AND', async () => {
    const [r1, r2, o1, o2, k1, k2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const lines = await insert('goods-receipt-lines', api.brand.id, [
      { goodsReceiptId: r1, orderItemId: o1, skuId: k1 },
      { goodsReceiptId: r1, orderItemId: o2, skuId: k2 },
      { goodsReceiptId: r2, orderItemId: o1, skuId: k2 },
      { goodsReceiptId: r2, orderItemId: o2, skuId: k1, deletedAt: '2026-04-01T00:00:00Z' },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ goodsReceiptId: r1 }, [0, 1]],
      [{ orderItemId: o1 }, [0, 2]],
      [{ skuId: k1 }, [0, 3]],
      [{ goodsReceiptId: r2, skuId: k1 }, [3]],
      [{ goodsReceiptId: r1, orderItemId: o2, skuId: k2 }, [1]],
      [{ goodsReceiptId: r1, orderItemId: o1, skuId: k2 }, []],
      [{ skuId: o1 }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/goods-receipt-lines${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => lines[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    for (const name of ['goodsReceiptId', 'orderItemId', 'skuId']) {
      await expectUuidFilter(api, 'goods-receipt-lines', name);
      await expectAnyOf(api, 'goods-receipt-lines', name, r1);
    }
  });
});
