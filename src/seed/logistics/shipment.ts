import type { RecordInput } from '../../db/insert-records.ts';
import type { SeedContext } from '../seed-context.ts';

/** A shipment, linked to the booking that reserved its space and to the order it carries; returns its id. */
export async function seedShipment({ put, newId, brandId, shipment, bookingId, orderId }: Pick<SeedContext, 'put' | 'newId' | 'brandId'> & {
  shipment: RecordInput;
  bookingId: string;
  orderId: string;
}): Promise<string> {
  const shipmentId = newId();
  await put('shipments', brandId, [{ id: shipmentId, ...shipment }]);
  await put('shipment-bookings', brandId, [{ shipmentId, bookingId }]);
  await put('order-shipments', brandId, [{ orderId, shipmentId }]);
  return shipmentId;
}
