import { documentFile } from '../document-file.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedBooking } from './booking.ts';
import { seedItemLineages } from './item-lineages.ts';
import { seedLegs } from './legs.ts';
import { seedPackingList } from './packing-list.ts';
import { seedShipmentCartons, TEE_PACKING } from './shipment-cartons.ts';
import { seedShipmentItems, type ShipmentLine } from './shipment-items.ts';
import { seedShipment } from './shipment.ts';

/**
 * SH-2026-0001 carries all of PO-2026-0001 from Porto: booked with Atlas,
 * trucked to Leixões, shipped to Rotterdam, trucked to the Tilburg DC, where
 * two Navy L turn out short.
 */

/** The SKU code whose two units went missing between Porto and Tilburg. */
export const SHORT_SKU = 'NW-TS-001-NAV-L';
export const SHORT_BY = 2;

/** The lines the warehouse flagged at receipt come first (Navy M, Navy L, Oat M); the rest follow in order line order. */
const FLAGGED_FIRST = ['NW-TS-001-NAV-M', SHORT_SKU, 'NW-TS-001-OAT-M'];

export async function seedPortoShipment(context: SeedContext & { reference: ReferenceIds; parties: PartyIds; orders: OrderIds }): Promise<{ shipmentId: string; lines: ShipmentLine[] }> {
  const { put, clock, newId, brandId, reference: { couriers, documentTypes }, parties: { partners, suppliers, locations }, orders } = context;
  const orderLines = [
    ...FLAGGED_FIRST.map((code) => orders.lines.po1.find((line) => line.sku.code === code)!),
    ...orders.lines.po1.filter((line) => !FLAGGED_FIRST.includes(line.sku.code)),
  ];

  clock.jumpTo('2026-03-20T10:00:00.000Z');
  const booking = await seedBooking({
    ...context, lines: orderLines, packing: TEE_PACKING,
    booking: {
      partnerId: partners.atlas, courierId: couriers.maersk, code: 'BK-ATL-26-0412', status: 'confirmed', mode: 'ocean',
      originLocationId: locations.portoFactory, destinationLocationId: locations.dc, requestedShipOn: '2026-03-30', confirmedAt: '2026-03-23T09:15:00.000Z',
    },
  });

  clock.jumpTo('2026-03-24T09:00:00.000Z');
  const shipmentId = await seedShipment({
    ...context, bookingId: booking.bookingId, orderId: orders.orders.po1,
    shipment: {
      code: 'SH-2026-0001', status: 'delivered', mode: 'ocean', courierId: couriers.maersk,
      originLocationId: locations.portoFactory, destinationLocationId: locations.dc, trackingNumber: 'MAEU261038457',
      etd: '2026-03-30', eta: '2026-04-07', departedAt: '2026-03-30T13:00:00.000Z', arrivedAt: '2026-04-07T08:40:00.000Z',
    },
  });
  const isShort = (line: { sku: { code: string } }): boolean => line.sku.code === SHORT_SKU;
  const lines = await seedShipmentItems({
    ...context, shipmentId, purchaseOrderNumber: orders.orderNumbers.po1, lines: orderLines,
    reconciliation: { receivedOf: (line) => line.quantity - (isShort(line) ? SHORT_BY : 0), outcomeOf: (line) => (isShort(line) ? 'short' : 'matched'), reconciledAt: '2026-04-08T14:30:00.000Z' },
  });
  await seedLegs({ ...context, shipmentId, lines, plan: [
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.portoFactory, destinationLocationId: locations.leixoes, vesselOrFlight: null, status: 'arrived', departedAt: '2026-03-30T13:00:00.000Z', arrivedAt: '2026-03-30T16:10:00.000Z' },
    { mode: 'ocean', courierId: couriers.maersk, originLocationId: locations.leixoes, destinationLocationId: locations.rotterdam, vesselOrFlight: 'Maersk Lisbon 612N', status: 'arrived', departedAt: '2026-03-31T18:00:00.000Z', arrivedAt: '2026-04-04T06:30:00.000Z' },
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.rotterdam, destinationLocationId: locations.dc, vesselOrFlight: null, status: 'arrived', departedAt: '2026-04-07T05:30:00.000Z', arrivedAt: '2026-04-07T08:40:00.000Z' },
  ] });
  const cartonRanges = await seedShipmentCartons({ ...context, shipmentId, lines, packing: TEE_PACKING, ssccBase: 260_001_000 });

  // Porto's packing list, with its PDF.
  clock.jumpTo('2026-03-27T11:00:00.000Z');
  const packingListId = newId();
  const [pdf] = await put('documents', brandId, [documentFile({
    documentTypeId: documentTypes.packingList, entityType: 'packing_list', entityId: packingListId,
    name: 'Packing list PL-PKW-2026-0007', fileName: 'PL-PKW-2026-0007.pdf', sizeBytes: 142_860, uploadedByUserId: PEOPLE.logistics,
  })]);
  const packingLineIds = await seedPackingList({
    ...context, lines, cartonRanges,
    header: { id: packingListId, shipmentId, supplierId: suppliers.porto, code: 'PL-PKW-2026-0007', status: 'confirmed', issuedOn: '2026-03-27', documentId: pdf!.id },
  });
  await seedItemLineages({ ...context, lines, bookingItemIds: booking.itemIds, packingLineIds, outcomeOf: (line) => (isShort(line.orderLine) ? 'short' : 'matched') });
  return { shipmentId, lines };
}
