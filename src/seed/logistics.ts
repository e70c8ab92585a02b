import type { CatalogIds } from './catalog.ts';
import { documentFile } from './documents.ts';
import type { OrderIds, OrderLine } from './orders.ts';
import type { PartyIds } from './parties.ts';
import { PEOPLE } from './people.ts';
import type { ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';
import { money, sscc } from './values.ts';

/**
 * Logistics. SH-2026-0001 carries all of PO-2026-0001 from Porto: booked with
 * Atlas, trucked to Leixões, shipped to Rotterdam, trucked to the Tilburg DC,
 * counted in (two Navy L short) and put in stock. SH-2026-0002 carries the
 * Navy half of PO-2026-0002 from Saigon and is at sea.
 */

/** A shipment line as later groups need it. */
export interface ShipmentLine {
  readonly id: string;
  readonly shipmentId: string;
  readonly orderLine: OrderLine;
  readonly quantity: number;
  readonly receivedQuantity: number;
}

export interface LogisticsIds {
  readonly shipments: Record<'sh1' | 'sh2', string>;
  readonly shipmentLines: Record<'sh1' | 'sh2', readonly ShipmentLine[]>;
  readonly goodsReceipt: string;
}

interface Packing {
  readonly unitsPerCarton: number;
  readonly cartonSizeId: string;
  /** Cubic metres and kilograms of one carton. */
  readonly cbm: number;
  readonly netKg: number;
  readonly grossKg: number;
}

/** The SKU code whose two units went missing between Porto and Tilburg. */
const SHORT_SKU = 'NW-TS-001-NAV-L';
const SHORT_BY = 2;

export async function seedLogistics({ put, putNamed, clock, newId, brandId, reference, parties, catalog, orders }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
  orders: OrderIds;
}): Promise<LogisticsIds> {
  const { couriers, cartonSizes, documentTypes } = reference;
  const { partners, suppliers, locations } = parties;
  const tees: Packing = { unitsPerCarton: 40, cartonSizeId: cartonSizes.medium, cbm: 0.096, netKg: 8.8, grossKg: 9.8 };
  const jackets: Packing = { unitsPerCarton: 10, cartonSizeId: cartonSizes.large, cbm: 0.24, netKg: 6.2, grossKg: 7.7 };
  const cartonsOf = (line: OrderLine, packing: Packing): number => Math.ceil(line.quantity / packing.unitsPerCarton);

  // ---- SH-2026-0001: PO-2026-0001, Porto to Tilburg ------------------------------------------
  // The first three shipment lines are the ones the warehouse flagged at receipt; the rest follow.
  const firstCodes = ['NW-TS-001-NAV-M', 'NW-TS-001-NAV-L', 'NW-TS-001-OAT-M'];
  const po1Lines = [
    ...firstCodes.map((code) => orders.lines.po1.find((line) => line.sku.code === code)!),
    ...orders.lines.po1.filter((line) => !firstCodes.includes(line.sku.code)),
  ];

  clock.jumpTo('2026-03-20T10:00:00.000Z');
  const bookings = await putNamed('bookings', brandId, {
    sh1: {
      partnerId: partners.atlas, courierId: couriers.maersk, code: 'BK-ATL-26-0412', status: 'confirmed', mode: 'ocean',
      originLocationId: locations.portoFactory, destinationLocationId: locations.dc, requestedShipOn: '2026-03-30', confirmedAt: '2026-03-23T09:15:00.000Z',
    },
  });
  const sh1BookingItems = await bookingItems(bookings.sh1, po1Lines, tees);

  clock.jumpTo('2026-03-24T09:00:00.000Z');
  const sh1 = newId();
  await put('shipments', brandId, [{
    id: sh1, code: 'SH-2026-0001', status: 'delivered', mode: 'ocean', courierId: couriers.maersk,
    originLocationId: locations.portoFactory, destinationLocationId: locations.dc, trackingNumber: 'MAEU261038457',
    etd: '2026-03-30', eta: '2026-04-07', departedAt: '2026-03-30T13:00:00.000Z', arrivedAt: '2026-04-07T08:40:00.000Z',
  }]);
  await put('shipment-bookings', brandId, [{ shipmentId: sh1, bookingId: bookings.sh1 }]);
  await put('order-shipments', brandId, [{ orderId: orders.orders.po1, shipmentId: sh1 }]);
  const sh1Lines = await shipmentLines(sh1, orders.orderNumbers.po1, po1Lines, {
    receivedOf: (line) => line.quantity - (line.sku.code === SHORT_SKU ? SHORT_BY : 0),
    outcomeOf: (line) => (line.sku.code === SHORT_SKU ? 'short' : 'matched'),
    reconciledAt: '2026-04-08T14:30:00.000Z',
  });
  await legs(sh1, sh1Lines, [
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.portoFactory, destinationLocationId: locations.leixoes, vesselOrFlight: null, status: 'arrived', departedAt: '2026-03-30T13:00:00.000Z', arrivedAt: '2026-03-30T16:10:00.000Z' },
    { mode: 'ocean', courierId: couriers.maersk, originLocationId: locations.leixoes, destinationLocationId: locations.rotterdam, vesselOrFlight: 'Maersk Lisbon 612N', status: 'arrived', departedAt: '2026-03-31T18:00:00.000Z', arrivedAt: '2026-04-04T06:30:00.000Z' },
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.rotterdam, destinationLocationId: locations.dc, vesselOrFlight: null, status: 'arrived', departedAt: '2026-04-07T05:30:00.000Z', arrivedAt: '2026-04-07T08:40:00.000Z' },
  ]);
  const sh1Cartons = await cartons(sh1, sh1Lines, tees, 260_001_000);

  clock.jumpTo('2026-03-27T11:00:00.000Z');
  const sh1PackingList = newId();
  const [packingListPdf] = await put('documents', brandId, [documentFile({
    documentTypeId: documentTypes.packingList, entityType: 'packing_list', entityId: sh1PackingList,
    name: 'Packing list PL-PKW-2026-0007', fileName: 'PL-PKW-2026-0007.pdf', sizeBytes: 142_860, uploadedByUserId: PEOPLE.logistics,
  })]);
  const sh1PackingLines = await packingList({
    id: sh1PackingList, shipmentId: sh1, supplierId: suppliers.porto, code: 'PL-PKW-2026-0007', status: 'confirmed',
    issuedOn: '2026-03-27', documentId: packingListPdf!.id, lines: sh1Lines, cartonRanges: sh1Cartons,
  });
  await lineages(sh1Lines, sh1BookingItems, sh1PackingLines, (line) => (line.orderLine.sku.code === SHORT_SKU ? 'short' : 'matched'));

  // ---- SH-2026-0002: the Navy half of PO-2026-0002, Saigon to Tilburg, at sea ----------------
  const po2Navy = orders.lines.po2.filter((line) => line.sku.productOptionId === catalog.colourways.rainJacketNavy);

  clock.jumpTo('2026-04-02T09:00:00.000Z');
  const sh2Booking = await putNamed('bookings', brandId, {
    sh2: {
      partnerId: partners.atlas, courierId: couriers.maersk, code: 'BK-ATL-26-0467', status: 'confirmed', mode: 'ocean',
      originLocationId: locations.saigonFactory, destinationLocationId: locations.dc, requestedShipOn: '2026-04-08', confirmedAt: '2026-04-02T08:40:00.000Z',
    },
  });
  const sh2BookingItems = await bookingItems(sh2Booking.sh2, po2Navy, jackets);

  clock.jumpTo('2026-04-06T10:00:00.000Z');
  const sh2 = newId();
  await put('shipments', brandId, [{
    id: sh2, code: 'SH-2026-0002', status: 'in_transit', mode: 'ocean', courierId: couriers.maersk,
    originLocationId: locations.saigonFactory, destinationLocationId: locations.dc, trackingNumber: 'MAEU261147702',
    etd: '2026-04-09', eta: '2026-05-14', departedAt: '2026-04-09T22:00:00.000Z', arrivedAt: null,
  }]);
  await put('shipment-bookings', brandId, [{ shipmentId: sh2, bookingId: sh2Booking.sh2 }]);
  await put('order-shipments', brandId, [{ orderId: orders.orders.po2, shipmentId: sh2 }]);
  const sh2Lines = await shipmentLines(sh2, orders.orderNumbers.po2, po2Navy, {
    receivedOf: () => 0,
    outcomeOf: () => 'pending',
    reconciledAt: null,
  });
  await legs(sh2, sh2Lines, [
    { mode: 'road', courierId: null, originLocationId: locations.saigonFactory, destinationLocationId: locations.catLai, vesselOrFlight: null, status: 'arrived', departedAt: '2026-04-08T01:00:00.000Z', arrivedAt: '2026-04-08T04:30:00.000Z' },
    { mode: 'ocean', courierId: couriers.maersk, originLocationId: locations.catLai, destinationLocationId: locations.rotterdam, vesselOrFlight: 'Maersk Sentosa 614W', status: 'departed', departedAt: '2026-04-09T22:00:00.000Z', arrivedAt: null },
    { mode: 'road', courierId: couriers.dsvRoad, originLocationId: locations.rotterdam, destinationLocationId: locations.dc, vesselOrFlight: null, status: 'planned', departedAt: null, arrivedAt: null },
  ]);
  const sh2Cartons = await cartons(sh2, sh2Lines, jackets, 260_002_000);
  const sh2PackingLines = await packingList({
    id: newId(), shipmentId: sh2, supplierId: suppliers.saigon, code: 'PL-SGA-2026-0031', status: 'issued',
    issuedOn: '2026-04-07', documentId: null, lines: sh2Lines, cartonRanges: sh2Cartons,
  });
  await lineages(sh2Lines, sh2BookingItems, sh2PackingLines, () => 'matched');
  await put('shipment-charges', brandId, [
    { shipmentId: sh2, partnerId: partners.atlas, chargeType: 'freight', amount: '2850.00', currency: 'USD', invoiceId: null },
    { shipmentId: sh2, partnerId: partners.atlas, chargeType: 'insurance', amount: '62.50', currency: 'USD', invoiceId: null },
  ]);

  // ---- Receiving SH-2026-0001 at the DC ---------------------------------------------------------
  clock.jumpTo('2026-04-07T15:20:00.000Z');
  const [receipt] = await put('goods-receipts', brandId, [{
    shipmentId: sh1, locationId: locations.dc, code: 'GR-2026-0001', status: 'completed', receivedAt: '2026-04-07T15:20:00.000Z',
  }]);
  const [navyM, navyL, oatM, ...rest] = sh1Lines;
  await put('goods-receipt-lines', brandId, [
    receiptLine(navyM!, navyM!.receivedQuantity),
    receiptLine(navyL!, navyL!.receivedQuantity),
    // Two damaged Navy L booked in by mistake, then taken off the receipt: the line stays, deleted.
    { ...receiptLine(navyL!, SHORT_BY), deletedAt: '2026-04-08T08:00:00.000Z' },
    receiptLine(oatM!, oatM!.receivedQuantity),
    ...rest.map((line) => receiptLine(line, line.receivedQuantity)),
  ]);

  clock.jumpTo('2026-04-08T18:00:00.000Z');
  await put('inventory', brandId, sh1Lines.map((line) => {
    const reserved = line.orderLine.sku.code === SHORT_SKU ? 60 : Math.round(line.receivedQuantity / 4);
    return {
      locationId: locations.dc, skuId: line.orderLine.sku.id,
      quantityOnHand: line.receivedQuantity, quantityReserved: reserved, quantityAvailable: line.receivedQuantity - reserved,
      countedAt: '2026-04-08T18:00:00.000Z',
    };
  }));

  return {
    shipments: { sh1, sh2 },
    shipmentLines: { sh1: sh1Lines, sh2: sh2Lines },
    goodsReceipt: receipt!.id,
  };

  function receiptLine(line: ShipmentLine, quantity: number) {
    return { goodsReceiptId: receipt!.id, orderItemId: line.orderLine.id, skuId: line.orderLine.sku.id, qtyReceived: String(quantity) };
  }

  /** Booking lines per order line; returns booking item ids by order item id. */
  async function bookingItems(bookingId: string, lines: readonly OrderLine[], packing: Packing): Promise<Map<string, string>> {
    const records = await put('booking-items', brandId, lines.map((line) => {
      const count = cartonsOf(line, packing);
      return {
        bookingId, orderItemId: line.id, skuId: line.sku.id, quantity: line.quantity, cartons: count,
        volumeCbm: (count * packing.cbm).toFixed(3), weightKg: money(count * packing.grossKg),
      };
    }));
    return new Map(lines.map((line, i) => [line.id, records[i]!.id]));
  }

  async function shipmentLines(shipmentId: string, purchaseOrderNumber: string, lines: readonly OrderLine[], { receivedOf, outcomeOf, reconciledAt }: {
    receivedOf: (line: OrderLine) => number;
    outcomeOf: (line: OrderLine) => string;
    reconciledAt: string | null;
  }): Promise<ShipmentLine[]> {
    const records = await put('shipment-items', brandId, lines.map((line, i) => ({
      shipmentId, orderItemId: line.id, sku: line.sku.code, quantity: line.quantity, receivedQuantity: receivedOf(line),
      purchaseOrderNumber, externalShipmentItemId: newId(), lineNumber: i + 1, lineageOutcome: outcomeOf(line), reconciledAt,
    })));
    return records.map((record, i) => ({ id: record.id, shipmentId, orderLine: lines[i]!, quantity: lines[i]!.quantity, receivedQuantity: receivedOf(lines[i]!) }));
  }

  async function legs(shipmentId: string, lines: readonly ShipmentLine[], plan: readonly Record<string, unknown>[]): Promise<void> {
    const records = await put('legs', brandId, plan.map((leg, i) => ({ shipmentId, sequence: i + 1, ...leg })));
    await put('leg-items', brandId, records.flatMap((leg) => lines.map((line) => ({ legId: leg.id, shipmentItemId: line.id, quantity: line.quantity }))));
  }

  /** One size per carton, numbered from 1 in line order; returns each line's first and last carton number. */
  async function cartons(shipmentId: string, lines: readonly ShipmentLine[], packing: Packing, ssccBase: number): Promise<Map<string, [number, number]>> {
    const planned: { line: ShipmentLine; quantity: number }[] = [];
    const ranges = new Map<string, [number, number]>();
    for (const line of lines) {
      const first = planned.length + 1;
      for (let left = line.quantity; left > 0; left -= packing.unitsPerCarton) planned.push({ line, quantity: Math.min(left, packing.unitsPerCarton) });
      ranges.set(line.id, [first, planned.length]);
    }
    const records = await put('shipment-cartons', brandId, planned.map(({ quantity }, i) => ({
      shipmentId, cartonSizeId: packing.cartonSizeId, cartonNumber: i + 1, sscc: sscc(ssccBase + i + 1),
      grossWeightKg: money(packing.grossKg - (packing.netKg * (packing.unitsPerCarton - quantity)) / packing.unitsPerCarton),
      netWeightKg: money((packing.netKg * quantity) / packing.unitsPerCarton),
    })));
    await put('shipment-carton-items', brandId, planned.map(({ line, quantity }, i) => ({
      shipmentCartonId: records[i]!.id, shipmentItemId: line.id, skuId: line.orderLine.sku.id, quantity,
    })));
    return ranges;
  }

  /** The supplier's packing list and its lines; returns packing-list line ids by shipment item id. */
  async function packingList({ lines, cartonRanges, ...header }: {
    id: string; shipmentId: string; supplierId: string; code: string; status: string; issuedOn: string; documentId: string | null;
    lines: readonly ShipmentLine[];
    cartonRanges: Map<string, [number, number]>;
  }): Promise<Map<string, string>> {
    const totalCartons = Math.max(...[...cartonRanges.values()].map(([, last]) => last));
    await put('packing-lists', brandId, [{ ...header, totalCartons, totalUnits: lines.reduce((sum, line) => sum + line.quantity, 0) }]);
    const records = await put('packing-list-lines', brandId, lines.map((line, i) => {
      const [cartonFrom, cartonTo] = cartonRanges.get(line.id)!;
      return { packingListId: header.id, orderItemId: line.orderLine.id, skuId: line.orderLine.sku.id, lineNumber: i + 1, cartonFrom, cartonTo, quantity: line.quantity };
    }));
    return new Map(lines.map((line, i) => [line.id, records[i]!.id]));
  }

  async function lineages(lines: readonly ShipmentLine[], bookingItemIds: Map<string, string>, packingLineIds: Map<string, string>, outcomeOf: (line: ShipmentLine) => string): Promise<void> {
    await put('shipment-item-lineages', brandId, lines.map((line) => ({
      shipmentItemId: line.id, sourceShipmentItemId: null, orderItemId: line.orderLine.id,
      bookingItemId: bookingItemIds.get(line.orderLine.id)!, packingListLineId: packingLineIds.get(line.id)!,
      quantity: line.quantity, outcome: outcomeOf(line),
    })));
  }
}
