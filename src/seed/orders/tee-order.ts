import type { CatalogIds } from '../catalog/catalog.ts';
import { skusOf, type SkuRef } from '../catalog/skus.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import { CURVE_RATIO } from '../reference-data/sizes.ts';
import type { SeedContext } from '../seed-context.ts';
import { money } from '../values.ts';
import { seedOrderLines } from './order-lines.ts';
import type { PlacedOrder } from './placed-order.ts';
import { seedProductionRun, seedRunItemRevisions } from './production-run.ts';

/**
 * PO-2026-0001 to Porto Knitwear for the tee in Navy and Oat: 40 ratio packs
 * per colourway on the 1:2:3:2:1 curve, Navy L raised from 80 to 120 by
 * amendment 1, ex-works brought forward by amendment 2; made in one run.
 */

/** The SKU whose quantity amendment 1 raised. */
const RAISED_SKU = 'NW-TS-001-NAV-L';
const UNIT_PRICE = 4.2;

/** Units ordered of a SKU, after amendment 1. */
export function teeOrderQuantity(sku: Pick<SkuRef, 'code' | 'size'>): number {
  return sku.code === RAISED_SKU ? 120 : 40 * CURVE_RATIO[sku.size];
}

export async function seedTeeOrder({ put, clock, brandId, reference, parties: { suppliers, locations }, catalog }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<PlacedOrder> {
  const skus = [...skusOf(catalog, catalog.colourways.teeNavy), ...skusOf(catalog, catalog.colourways.teeOat)];
  const total = money(skus.reduce((sum, sku) => sum + teeOrderQuantity(sku) * UNIT_PRICE, 0));

  clock.jumpTo('2026-02-23T10:00:00.000Z');
  const [order] = await put('orders', brandId, [{
    supplierId: suppliers.porto, code: 'PO-2026-0001', status: 'closed', currency: 'EUR',
    orderedOn: '2026-02-23', requestedDeliveryOn: '2026-04-10', incoterm: 'FCA', totalAmount: total,
    paymentTermId: reference.paymentTerms.deposit30Balance70, deliveryLocationId: locations.dc,
  }]);
  const orderId = order!.id;
  const lines = await seedOrderLines({ put, brandId, orderId, skus, quantityOf: teeOrderQuantity, unitPrice: '4.20', currency: 'EUR', statusOf: () => 'received' });

  clock.jumpTo('2026-02-27T14:00:00.000Z');
  const raised = lines.find((line) => line.sku.code === RAISED_SKU)!;
  await put('order-amendments', brandId, [{
    orderId, orderItemId: raised.id, amendmentNumber: 1, type: 'quantity', status: 'accepted',
    reason: 'Wholesale pre-orders for Navy L above forecast.',
    changes: { quantity: { old: 80, new: 120 }, totalAmount: { old: money(Number(total) - 40 * UNIT_PRICE), new: total } },
  }]);
  const { runId, items } = await seedProductionRun({
    put, brandId, lines,
    run: {
      orderId, supplierId: suppliers.porto, locationId: locations.portoFactory, code: 'PR-2026-PKW-01', status: 'completed',
      plannedStartOn: '2026-03-02', plannedEndOn: '2026-03-24', actualStartOn: '2026-03-02', actualEndOn: '2026-03-23',
    },
    progressOf: (line) => ({ completedQuantity: line.quantity, status: 'completed' }),
  });

  clock.jumpTo('2026-03-02T07:00:00.000Z');
  await put('order-amendments', brandId, [{
    orderId, orderItemId: null, amendmentNumber: 2, type: 'date', status: 'accepted',
    reason: 'Porto Knitwear confirmed an earlier ex-works date.',
    changes: { requestedDeliveryOn: { old: '2026-04-17', new: '2026-04-10' } },
  }]);
  await seedRunItemRevisions({ put, brandId, items, revisionNumber: 1, completed: 'none', reason: 'Production plan confirmed.', effectiveAt: '2026-03-02T07:00:00.000Z' });
  return { orderId, code: 'PO-2026-0001', lines, total, runId, runItems: items };
}
