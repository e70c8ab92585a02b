import type { SeedContext } from '../seed-context.ts';
import type { ShipmentLine } from './shipment-items.ts';

/** Where each shipment line came from: its order line, booking line and packing-list line, and how it reconciled. */
export async function seedItemLineages({ put, brandId, lines, bookingItemIds, packingLineIds, outcomeOf }: Pick<SeedContext, 'put' | 'brandId'> & {
  lines: readonly ShipmentLine[];
  /** Booking item ids by order item id. */
  bookingItemIds: Map<string, string>;
  /** Packing-list line ids by shipment item id. */
  packingLineIds: Map<string, string>;
  outcomeOf: (line: ShipmentLine) => string;
}): Promise<void> {
  await put('shipment-item-lineages', brandId, lines.map((line) => ({
    shipmentItemId: line.id, sourceShipmentItemId: null, orderItemId: line.orderLine.id,
    bookingItemId: bookingItemIds.get(line.orderLine.id)!, packingListLineId: packingLineIds.get(line.id)!,
    quantity: line.quantity, outcome: outcomeOf(line),
  })));
}
