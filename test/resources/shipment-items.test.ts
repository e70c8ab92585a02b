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

const FIELDS = [
  'id', 'shipmentId', 'orderItemId', 'sku', 'quantity', 'receivedQuantity', 'purchaseOrderNumber',
  'externalShipmentItemId', 'lineNumber', 'lineageOutcome', 'reconciledAt', 'createdAt', 'updatedAt',
];

describe('GET /brands/{brand}/shipment-items', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'shipment-items',
    includes: [],
    filter: { name: 'sku', value: 'TEE-NVY-M' },
    make: (brandId) => insertOne('shipment-items', brandId, { shipmentId: randomUUID(), sku: 'TEE-NVY-M', quantity: 10 }),
  });

  it('returns exactly the spec fields in order: integers as numbers, reconciledAt with milliseconds, nulls where null', async () => {
    const [shipmentId, orderItemId, externalId] = [randomUUID(), randomUUID(), randomUUID()];
    const [full, bare] = await insert('shipment-items', api.brand.id, [
      {
        shipmentId, orderItemId, sku: 'TEE-NVY-M', quantity: 120, receivedQuantity: 0, purchaseOrderNumber: 'PO-2026/0042',
        externalShipmentItemId: externalId, lineNumber: 3, lineageOutcome: 'split', reconciledAt: '2026-03-04T05:06:07.891234+01:00',
        createdAt: '2026-03-01T09:30:00.123456Z', updatedAt: '2026-03-02T09:30:00Z',
      },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/shipment-items');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        {
          id: full!.id, shipmentId, orderItemId, sku: 'TEE-NVY-M', quantity: 120, receivedQuantity: 0, purchaseOrderNumber: 'PO-2026/0042',
          externalShipmentItemId: externalId, lineNumber: 3, lineageOutcome: 'split', reconciledAt: '2026-03-04T04:06:07.891Z',
          createdAt: '2026-03-01T09:30:00.123Z', updatedAt: '2026-03-02T09:30:00.000Z',
        },
        {
          id: bare!.id, shipmentId: null, orderItemId: null, sku: null, quantity: null, receivedQuantity: null, purchaseOrderNumber: null,
          externalShipmentItemId: null, lineNumber: null, lineageOutcome: null, reconciledAt: null,
          createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z',
        },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    const one = await api.get(`/brands/acme/shipment-items/${full!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
    expect(Object.keys(one.body)).to.deep.equal(FIELDS);
  });

  it('filters by shipmentId, orderItemId, sku, purchaseOrderNumber and lineageOutcome, combined with AND', async () => {
    const [s1, s2, oi1, oi2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const items = await insert('shipment-items', api.brand.id, [
      { shipmentId: s1, orderItemId: oi1, sku: 'TEE-NVY-M', purchaseOrderNumber: 'PO 1', lineageOutcome: 'split' }, // 0
      { shipmentId: s1, orderItemId: oi2, sku: 'tee-nvy-m', purchaseOrderNumber: 'PO 1', lineageOutcome: 'merged' }, // 1
      { shipmentId: s2, orderItemId: oi1, sku: 'TEE-NVY-M', purchaseOrderNumber: 'po 1', lineageOutcome: 'Split' }, // 2
      { shipmentId: s2, orderItemId: oi2, sku: 'TEE-NVY-M ', purchaseOrderNumber: 'PO 1/2', lineageOutcome: 'split' }, // 3
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ shipmentId: s1 }, [0, 1]],
      [{ orderItemId: oi1 }, [0, 2]],
      [{ sku: 'TEE-NVY-M' }, [0, 2]],
      [{ sku: 'tee-nvy-m' }, [1]],
      [{ sku: 'TEE-NVY-M ' }, [3]],
      [{ purchaseOrderNumber: 'PO 1' }, [0, 1]],
      [{ purchaseOrderNumber: 'po 1' }, [2]],
      [{ purchaseOrderNumber: 'PO 1/2' }, [3]],
      [{ lineageOutcome: 'split' }, [0, 3]],
      [{ lineageOutcome: 'Split' }, [2]],
      [{ shipmentId: s2, sku: 'TEE-NVY-M' }, [2]],
      [{ shipmentId: s1, orderItemId: oi2, lineageOutcome: 'merged', purchaseOrderNumber: 'PO 1', sku: 'tee-nvy-m' }, [1]],
      [{ shipmentId: s1, lineageOutcome: 'Split' }, []],
      // The external id is not the shipment id.
      [{ shipmentId: oi1 }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/shipment-items${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => items[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
  });

  it('validates the filters', async () => {
    await expectUuidFilter(api, 'shipment-items', 'shipmentId');
    await expectUuidFilter(api, 'shipment-items', 'orderItemId');
    for (const name of ['sku', 'purchaseOrderNumber', 'lineageOutcome']) {
      await expectStringFilterLength(api, 'shipment-items', name);
      await expectAnyOf(api, 'shipment-items', name, 'x');
    }
  });
});
