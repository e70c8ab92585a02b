import type { CatalogIds } from '../catalog/catalog.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedBooking } from './booking.ts';
import { seedItemLineages } from './item-lineages.ts';
import { seedLegs } from './legs.ts';
import { seedPackingList } from './packing-list.ts';
import { JACKET_PACKING, seedShipmentCartons } from './shipment-cartons.ts';
import { seedShipmentItems, type ShipmentLine } from './shipment-items.ts';
import { seedShipment } from './shipment.ts';

/**
 * SH-2026-0002 carries the Navy half of PO-2026-0002 from Saigon: trucked to
 * Cat Lai, at sea to Rotterdam, the last leg still planned. Atlas has charged
 * freight and insurance, not yet invoiced.
 */
export async function seedSaigonShipment(context: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
  orders: OrderIds;
}): Promise<{ shipmentId: string; lines: ShipmentLine[] }> {
  const { put, clock, newId, brandId, reference: { couriers }, parties: { partners, suppliers, locations }, catalog, orders } = context;
  const navyLines = orders.lines.po2.filter((line) => line.sku.productOptionId === catalog.colourways.rainJacketNavy);

  clock.jumpTo('2026-04-02T09:00:00.000Z');
  const booking = await seedBooking({
    ...context, lines: navyLines, packing: JACKET_PACKING,
    booking: {
      partnerId: partners.atlas, courierId: couriers.maersk, code: 'BK-ATL-26-0467', status: 'confirmed', mode: 'ocean',
      originLocationId: locations.saigonFactory, destinationLocationId: locations.dc, requestedShipOn: '2026-04-08', confirmedAt: '2026-04-02T08:40:00.000Z',
    },
  });

  clock.jumpTo('2026-04-06T10:00:00.000Z');
  const shipmentId = await seedShipment({
    ...context, bookingId: booking.bookingId, orderId: orders.orders.po2,
    shipment: {
      code: 'SH-2026-0002', status: 'in_transit', mode: 'ocean', courierId: couriers.maersk,
      originLocationId: locations.saigonFactory, destinationLocationId: locations.dc, trackingNumber: 'MAEU261147702',
      etd: '2026-04-09', eta: '2026-05-14', departedAt: '2026-04-09T22:00:00.000Z', arrivedAt: null,
    },
  });
  const lines = await seedShipmentItems({
    ...context, shipmentId, purchaseOrderNumber: orders.orderNumbers.po2, lines: navyLines,
    reconciliation: { receivedOf: () => 0, outcomeOf: () => 'pending', reconciledAt: null },
  });
  await seedLegs({ ...context, shipmentId, lines, plan: [
    { mode: 'road', courierId: null, originLocationId: locations.saigonFactory, destinationLocationId: locations.catLai, vesselOrFlight: null, status: 'arrived', departedAt: '2026-04-08T01:00:00.000Z', arrivedAt: '2026-04-08T04:30:00.000Z' },
    { mode: 'ocean', courierId: couriers.maersk, originLocationId: locations.catLai, destinationLocationId: locations.rotterdam, vesselOrFlight: 'Maersk Sentosa 614W', status: 'departed', departedAt: '2026-04-09T22:00:00.000Z', arrivedAt: null },
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.rotterdam, destinationLocationId: locations.dc, vesselOrFlight: null, status: 'planned', departedAt: null, arrivedAt: null },
  ] });
  const cartonRanges = await seedShipmentCartons({ ...context, shipmentId, lines, packing: JACKET_PACKING, ssccBase: 260_002_000 });
  const packingLineIds = await seedPackingList({
    ...context, lines, cartonRanges,
    header: { id: newId(), shipmentId, supplierId: suppliers.saigon, code: 'PL-SGA-2026-0031', status: 'issued', issuedOn: '2026-04-07', documentId: null },
  });
  await seedItemLineages({ ...context, lines, bookingItemIds: booking.itemIds, packingLineIds, outcomeOf: () => 'matched' });
  await put('shipment-charges', brandId, [
    { shipmentId, partnerId: partners.atlas, chargeType: 'freight', amount: '2850.00', currency: 'USD', invoiceId: null },
    { shipmentId, partnerId: partners.atlas, chargeType: 'insurance', amount: '62.50', currency: 'USD', invoiceId: null },
  ]);
  return { shipmentId, lines };
}
