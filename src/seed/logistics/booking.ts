import type { RecordInput } from '../../db/insert-records.ts';
import type { OrderLine } from '../orders/order-lines.ts';
import type { SeedContext } from '../seed-context.ts';
import { money } from '../values.ts';
import { cartonsFor, type Packing } from './shipment-cartons.ts';

/** A booking with the forwarder: one booking line per order line, with its cartons, volume and weight. */
export async function seedBooking({ put, brandId, booking, lines, packing }: Pick<SeedContext, 'put' | 'brandId'> & {
  booking: RecordInput;
  lines: readonly OrderLine[];
  packing: Packing;
}): Promise<{ bookingId: string; itemIds: Map<string, string> }> {
  const [written] = await put('bookings', brandId, [booking]);
  const bookingId = written!.id;
  const records = await put('booking-items', brandId, lines.map((line) => {
    const count = cartonsFor(line.quantity, packing);
    return {
      bookingId, orderItemId: line.id, skuId: line.sku.id, quantity: line.quantity, cartons: count,
      volumeCbm: (count * packing.cbm).toFixed(3), weightKg: money(count * packing.grossKg),
    };
  }));
  // Booking item ids by order item id.
  return { bookingId, itemIds: new Map(lines.map((line, i) => [line.id, records[i]!.id])) };
}
