import type { PartyIds } from '../parties/parties.ts';
import type { SeedContext } from '../seed-context.ts';
import { SHORT_BY, SHORT_SKU } from './porto-shipment.ts';
import type { ShipmentLine } from './shipment-items.ts';

/**
 * Receiving SH-2026-0001 at the DC: counted in (two Navy L short, two damaged
 * Navy L booked in by mistake and taken off again), then put in stock with
 * part of each SKU reserved.
 */
export async function seedGoodsReceipt({ put, clock, brandId, parties: { locations }, shipmentId, lines }: SeedContext & {
  parties: PartyIds;
  shipmentId: string;
  /** The shipment's lines, the three the warehouse flagged (Navy M, Navy L, Oat M) first. */
  lines: readonly ShipmentLine[];
}): Promise<string> {
  clock.jumpTo('2026-04-07T15:20:00.000Z');
  const [receipt] = await put('goods-receipts', brandId, [{
    shipmentId, locationId: locations.dc, code: 'GR-2026-0001', status: 'completed', receivedAt: '2026-04-07T15:20:00.000Z',
  }]);
  const receiptLine = (line: ShipmentLine, quantity: number) => ({
    goodsReceiptId: receipt!.id, orderItemId: line.orderLine.id, skuId: line.orderLine.sku.id, qtyReceived: String(quantity),
  });
  const [navyM, navyL, oatM, ...rest] = lines;
  await put('goods-receipt-lines', brandId, [
    receiptLine(navyM!, navyM!.receivedQuantity),
    receiptLine(navyL!, navyL!.receivedQuantity),
    // Two damaged Navy L booked in by mistake, then taken off the receipt: the line stays, deleted.
    { ...receiptLine(navyL!, SHORT_BY), deletedAt: '2026-04-08T08:00:00.000Z' },
    receiptLine(oatM!, oatM!.receivedQuantity),
    ...rest.map((line) => receiptLine(line, line.receivedQuantity)),
  ]);

  clock.jumpTo('2026-04-08T18:00:00.000Z');
  await put('inventory', brandId, lines.map((line) => {
    const reserved = line.orderLine.sku.code === SHORT_SKU ? 60 : Math.round(line.receivedQuantity / 4);
    return {
      locationId: locations.dc, skuId: line.orderLine.sku.id,
      quantityOnHand: line.receivedQuantity, quantityReserved: reserved, quantityAvailable: line.receivedQuantity - reserved,
      countedAt: '2026-04-08T18:00:00.000Z',
    };
  }));
  return receipt!.id;
}
