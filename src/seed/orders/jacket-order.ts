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
 * PO-2026-0002 to Saigon Apparel for the rain jacket in Navy and Forest, 20
 * ratio packs per colourway: Navy is finished and shipped, Forest is still
 * being sewn (40% done).
 */

const UNIT_PRICE = 17.4;

/** Units ordered of a SKU. */
export function jacketOrderQuantity(sku: Pick<SkuRef, 'size'>): number {
  return 20 * CURVE_RATIO[sku.size];
}

export async function seedJacketOrder({ put, clock, brandId, reference, parties: { suppliers, locations }, catalog }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<PlacedOrder> {
  const navy = catalog.colourways.rainJacketNavy;
  const skus = [...skusOf(catalog, navy), ...skusOf(catalog, catalog.colourways.rainJacketForest)];
  const total = money(skus.reduce((sum, sku) => sum + jacketOrderQuantity(sku) * UNIT_PRICE, 0));

  clock.jumpTo('2026-03-06T09:00:00.000Z');
  const [order] = await put('orders', brandId, [{
    supplierId: suppliers.saigon, code: 'PO-2026-0002', status: 'in_production', currency: 'USD',
    orderedOn: '2026-03-06', requestedDeliveryOn: '2026-05-20', incoterm: 'FOB', totalAmount: total,
    paymentTermId: reference.paymentTerms.net60, deliveryLocationId: locations.dc,
  }]);
  const orderId = order!.id;
  const lines = await seedOrderLines({
    put, brandId, orderId, skus, quantityOf: jacketOrderQuantity, unitPrice: '17.40', currency: 'USD',
    statusOf: (sku) => (sku.productOptionId === navy ? 'shipped' : 'confirmed'),
  });
  const { runId, items } = await seedProductionRun({
    put, brandId, lines,
    run: {
      orderId, supplierId: suppliers.saigon, locationId: locations.saigonFactory, code: 'PR-2026-SGA-01', status: 'in_progress',
      plannedStartOn: '2026-03-16', plannedEndOn: '2026-04-24', actualStartOn: '2026-03-16', actualEndOn: null,
    },
    progressOf: (line) => (line.sku.productOptionId === navy
      ? { completedQuantity: line.quantity, status: 'completed' }
      : { completedQuantity: Math.round(line.quantity * 0.4), status: 'sewing' }),
  });

  clock.jumpTo('2026-03-16T07:00:00.000Z');
  await seedRunItemRevisions({ put, brandId, items, revisionNumber: 1, completed: 'none', reason: 'Production plan confirmed.', effectiveAt: '2026-03-16T07:00:00.000Z' });
  return { orderId, code: 'PO-2026-0002', lines, total, runId, runItems: items };
}
