import { expect } from 'chai';
import type { OrderLine } from '../../../src/seed/orders/order-lines.ts';
import { shipmentItemRecords } from '../../../src/seed/logistics/shipment-items.ts';

describe('shipment items', () => {
  const line = (id: string, code: string, quantity: number): OrderLine => ({
    id, orderId: 'po', lineNumber: 1, quantity, unitPrice: '4.20', currency: 'EUR',
    sku: { id: `sku-${id}`, code, barcode: '', productId: 'p', productOptionId: 'o', size: 'M' },
  });

  it('are numbered from 1, name the SKU of their order line by code, and carry the reconciliation and a new external id each', () => {
    let n = 0;
    const records = shipmentItemRecords({
      shipmentId: 'sh', purchaseOrderNumber: 'PO-1', newId: () => `ext-${(n += 1)}`,
      lines: [line('a', 'NW-TS-001-NAV-M', 120), line('b', 'NW-TS-001-NAV-L', 120)],
      reconciliation: { receivedOf: (l) => l.quantity - (l.id === 'b' ? 2 : 0), outcomeOf: (l) => (l.id === 'b' ? 'short' : 'matched'), reconciledAt: '2026-04-08T14:30:00.000Z' },
    });
    expect(records).to.deep.equal([
      { shipmentId: 'sh', orderItemId: 'a', sku: 'NW-TS-001-NAV-M', quantity: 120, receivedQuantity: 120, purchaseOrderNumber: 'PO-1', externalShipmentItemId: 'ext-1', lineNumber: 1, lineageOutcome: 'matched', reconciledAt: '2026-04-08T14:30:00.000Z' },
      { shipmentId: 'sh', orderItemId: 'b', sku: 'NW-TS-001-NAV-L', quantity: 120, receivedQuantity: 118, purchaseOrderNumber: 'PO-1', externalShipmentItemId: 'ext-2', lineNumber: 2, lineageOutcome: 'short', reconciledAt: '2026-04-08T14:30:00.000Z' },
    ]);
  });
});
