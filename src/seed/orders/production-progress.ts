import type { CatalogIds } from '../catalog/catalog.ts';
import type { SeedContext } from '../seed-context.ts';
import type { PlacedOrder } from './placed-order.ts';
import { seedRunItemRevisions } from './production-run.ts';

/**
 * How production went: the tees finish on 23 March; the Navy jackets finish
 * first to make the April sailing; the Forest shell fabric arrives late, and
 * Saigon proposes a later delivery date for Forest.
 */
export async function seedProductionProgress({ put, clock, brandId, catalog, tee, jacket }: SeedContext & {
  catalog: CatalogIds;
  tee: PlacedOrder;
  jacket: PlacedOrder;
}): Promise<void> {
  clock.jumpTo('2026-03-23T16:00:00.000Z');
  await seedRunItemRevisions({
    put, brandId, items: tee.runItems, revisionNumber: 2, completed: 'as recorded',
    reason: 'Finished, inspected and packed.', effectiveAt: '2026-03-23T16:00:00.000Z',
  });

  // Run items are in line order: the ith item makes the ith line.
  const isNavy = (i: number): boolean => jacket.lines[i]!.sku.productOptionId === catalog.colourways.rainJacketNavy;
  clock.jumpTo('2026-04-03T15:00:00.000Z');
  await seedRunItemRevisions({
    put, brandId, items: jacket.runItems.filter((_, i) => isNavy(i)), revisionNumber: 2, completed: 'as recorded',
    reason: 'Navy finished first to make the April sailing.', effectiveAt: '2026-04-03T15:00:00.000Z',
  });
  clock.jumpTo('2026-04-10T11:00:00.000Z');
  await seedRunItemRevisions({
    put, brandId, items: jacket.runItems.filter((_, i) => !isNavy(i)), revisionNumber: 2, completed: 'as recorded',
    reason: 'Forest shell fabric arrived late from the mill; sewing resumed.', effectiveAt: '2026-04-10T11:00:00.000Z',
  });
  await put('order-amendments', brandId, [{
    orderId: jacket.orderId, orderItemId: null, amendmentNumber: 1, type: 'date', status: 'proposed',
    reason: 'Forest shell fabric delayed at the mill; Forest to follow on a later sailing.',
    changes: { requestedDeliveryOn: { old: '2026-05-20', new: '2026-06-05' } },
  }]);
}
