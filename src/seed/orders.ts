import { skusOf, type CatalogIds, type SkuRef } from './catalog.ts';
import type { PartyIds } from './parties.ts';
import { CURVE_RATIO, type ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';
import { money } from './values.ts';

/**
 * Orders and production: PO-2026-0001 to Porto Knitwear for the tee in Navy
 * and Oat (one line per SKU on the 1:2:3:2:1 curve, Navy L raised by an
 * amendment), made and finished; PO-2026-0002 to Saigon Apparel for the rain
 * jacket in Navy and Forest, Navy finished, Forest still on the line.
 */

/** An order line as later groups need it. */
export interface OrderLine {
  readonly id: string;
  readonly orderId: string;
  readonly lineNumber: number;
  readonly sku: SkuRef;
  readonly quantity: number;
  readonly unitPrice: string;
  readonly currency: 'EUR' | 'USD';
}

export interface OrderIds {
  readonly orders: Record<'po1' | 'po2', string>;
  readonly orderNumbers: Record<'po1' | 'po2', string>;
  readonly lines: Record<'po1' | 'po2', readonly OrderLine[]>;
  readonly totals: Record<'po1' | 'po2', string>;
  readonly productionRuns: Record<'po1' | 'po2', string>;
}

export async function seedOrders({ put, clock, brandId, reference, parties, catalog }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<OrderIds> {
  const { suppliers, locations } = parties;
  const { colourways } = catalog;

  // PO-2026-0001: 40 ratio packs per colourway; Navy L is raised from 80 to 120 by amendment 1.
  const po1Skus = [...skusOf(catalog, colourways.teeNavy), ...skusOf(catalog, colourways.teeOat)];
  const po1Quantity = (sku: SkuRef): number => (sku.code === 'NW-TS-001-NAV-L' ? 120 : 40 * CURVE_RATIO[sku.size]);
  const po1Total = money(po1Skus.reduce((sum, sku) => sum + po1Quantity(sku) * 4.2, 0));
  // PO-2026-0002: 20 ratio packs per colourway.
  const po2Skus = [...skusOf(catalog, colourways.rainJacketNavy), ...skusOf(catalog, colourways.rainJacketForest)];
  const po2Quantity = (sku: SkuRef): number => 20 * CURVE_RATIO[sku.size];
  const po2Total = money(po2Skus.reduce((sum, sku) => sum + po2Quantity(sku) * 17.4, 0));

  clock.jumpTo('2026-02-23T10:00:00.000Z');
  const [po1] = await put('orders', brandId, [{
    supplierId: suppliers.porto, code: 'PO-2026-0001', status: 'closed', currency: 'EUR',
    orderedOn: '2026-02-23', requestedDeliveryOn: '2026-04-10', incoterm: 'FCA', totalAmount: po1Total,
    paymentTermId: reference.paymentTerms.deposit30Balance70, deliveryLocationId: locations.dc,
  }]);
  const po1Lines = await orderLines(po1!.id, po1Skus, po1Quantity, '4.20', 'EUR', () => 'received');

  clock.jumpTo('2026-02-27T14:00:00.000Z');
  const navyL = po1Lines.find((line) => line.sku.code === 'NW-TS-001-NAV-L')!;
  await put('order-amendments', brandId, [{
    orderId: po1!.id, orderItemId: navyL.id, amendmentNumber: 1, type: 'quantity', status: 'accepted',
    reason: 'Wholesale pre-orders for Navy L above forecast.',
    changes: { quantity: { old: 80, new: 120 }, totalAmount: { old: money(Number(po1Total) - 40 * 4.2), new: po1Total } },
  }]);
  const [po1Run] = await put('production-runs', brandId, [{
    orderId: po1!.id, supplierId: suppliers.porto, locationId: locations.portoFactory, code: 'PR-2026-PKW-01', status: 'completed',
    plannedStartOn: '2026-03-02', plannedEndOn: '2026-03-24', actualStartOn: '2026-03-02', actualEndOn: '2026-03-23',
  }]);
  const po1RunItems = await put('production-run-items', brandId, po1Lines.map((line) => ({
    productionRunId: po1Run!.id, orderItemId: line.id, skuId: line.sku.id,
    plannedQuantity: line.quantity, completedQuantity: line.quantity, status: 'completed',
  })));

  clock.jumpTo('2026-03-02T07:00:00.000Z');
  await put('order-amendments', brandId, [{
    orderId: po1!.id, orderItemId: null, amendmentNumber: 2, type: 'date', status: 'accepted',
    reason: 'Porto Knitwear confirmed an earlier ex-works date.',
    changes: { requestedDeliveryOn: { old: '2026-04-17', new: '2026-04-10' } },
  }]);
  await put('production-run-item-revisions', brandId, po1RunItems.map((item) => ({
    productionRunItemId: item.id, revisionNumber: 1, plannedQuantity: item.plannedQuantity, completedQuantity: 0,
    reason: 'Production plan confirmed.', effectiveAt: '2026-03-02T07:00:00.000Z',
  })));

  clock.jumpTo('2026-03-06T09:00:00.000Z');
  const [po2] = await put('orders', brandId, [{
    supplierId: suppliers.saigon, code: 'PO-2026-0002', status: 'in_production', currency: 'USD',
    orderedOn: '2026-03-06', requestedDeliveryOn: '2026-05-20', incoterm: 'FOB', totalAmount: po2Total,
    paymentTermId: reference.paymentTerms.net60, deliveryLocationId: locations.dc,
  }]);
  const isNavy = (line: { sku: SkuRef }): boolean => line.sku.productOptionId === colourways.rainJacketNavy;
  const po2Lines = await orderLines(po2!.id, po2Skus, po2Quantity, '17.40', 'USD', (sku) => (sku.productOptionId === colourways.rainJacketNavy ? 'shipped' : 'confirmed'));
  const [po2Run] = await put('production-runs', brandId, [{
    orderId: po2!.id, supplierId: suppliers.saigon, locationId: locations.saigonFactory, code: 'PR-2026-SGA-01', status: 'in_progress',
    plannedStartOn: '2026-03-16', plannedEndOn: '2026-04-24', actualStartOn: '2026-03-16', actualEndOn: null,
  }]);
  const forestDone = (quantity: number): number => Math.round(quantity * 0.4);
  const po2RunItems = await put('production-run-items', brandId, po2Lines.map((line) => ({
    productionRunId: po2Run!.id, orderItemId: line.id, skuId: line.sku.id, plannedQuantity: line.quantity,
    completedQuantity: isNavy(line) ? line.quantity : forestDone(line.quantity), status: isNavy(line) ? 'completed' : 'sewing',
  })));

  clock.jumpTo('2026-03-16T07:00:00.000Z');
  await put('production-run-item-revisions', brandId, po2RunItems.map((item) => ({
    productionRunItemId: item.id, revisionNumber: 1, plannedQuantity: item.plannedQuantity, completedQuantity: 0,
    reason: 'Production plan confirmed.', effectiveAt: '2026-03-16T07:00:00.000Z',
  })));

  clock.jumpTo('2026-03-23T16:00:00.000Z');
  await put('production-run-item-revisions', brandId, po1RunItems.map((item) => ({
    productionRunItemId: item.id, revisionNumber: 2, plannedQuantity: item.plannedQuantity, completedQuantity: item.completedQuantity,
    reason: 'Finished, inspected and packed.', effectiveAt: '2026-03-23T16:00:00.000Z',
  })));

  clock.jumpTo('2026-04-03T15:00:00.000Z');
  const navyItems = po2RunItems.filter((_, i) => isNavy(po2Lines[i]!));
  const forestItems = po2RunItems.filter((_, i) => !isNavy(po2Lines[i]!));
  await put('production-run-item-revisions', brandId, navyItems.map((item) => ({
    productionRunItemId: item.id, revisionNumber: 2, plannedQuantity: item.plannedQuantity, completedQuantity: item.completedQuantity,
    reason: 'Navy finished first to make the April sailing.', effectiveAt: '2026-04-03T15:00:00.000Z',
  })));
  clock.jumpTo('2026-04-10T11:00:00.000Z');
  await put('production-run-item-revisions', brandId, forestItems.map((item) => ({
    productionRunItemId: item.id, revisionNumber: 2, plannedQuantity: item.plannedQuantity, completedQuantity: item.completedQuantity,
    reason: 'Forest shell fabric arrived late from the mill; sewing resumed.', effectiveAt: '2026-04-10T11:00:00.000Z',
  })));
  await put('order-amendments', brandId, [{
    orderId: po2!.id, orderItemId: null, amendmentNumber: 1, type: 'date', status: 'proposed',
    reason: 'Forest shell fabric delayed at the mill; Forest to follow on a later sailing.',
    changes: { requestedDeliveryOn: { old: '2026-05-20', new: '2026-06-05' } },
  }]);

  return {
    orders: { po1: po1!.id, po2: po2!.id },
    orderNumbers: { po1: 'PO-2026-0001', po2: 'PO-2026-0002' },
    lines: { po1: po1Lines, po2: po2Lines },
    totals: { po1: po1Total, po2: po2Total },
    productionRuns: { po1: po1Run!.id, po2: po2Run!.id },
  };

  async function orderLines(
    orderId: string,
    skus: readonly SkuRef[],
    quantityOf: (sku: SkuRef) => number,
    unitPrice: string,
    currency: 'EUR' | 'USD',
    statusOf: (sku: SkuRef) => string,
  ): Promise<OrderLine[]> {
    const records = await put('order-items', brandId, skus.map((sku, i) => ({
      orderId, productId: sku.productId, productOptionId: sku.productOptionId, skuId: sku.id,
      lineNumber: i + 1, quantity: quantityOf(sku), unitPrice, currency, status: statusOf(sku),
    })));
    return records.map((record, i) => ({ id: record.id, orderId, lineNumber: i + 1, sku: skus[i]!, quantity: quantityOf(skus[i]!), unitPrice, currency }));
  }
}
