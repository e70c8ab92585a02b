import type { CatalogIds } from '../catalog/catalog.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedJacketOrder } from './jacket-order.ts';
import type { OrderLine } from './order-lines.ts';
import { seedProductionProgress } from './production-progress.ts';
import { seedTeeOrder } from './tee-order.ts';

export type { OrderLine } from './order-lines.ts';

/**
 * Orders and production: PO-2026-0001 to Porto Knitwear for the tee in Navy
 * and Oat (one line per SKU on the 1:2:3:2:1 curve, Navy L raised by an
 * amendment), made and finished; PO-2026-0002 to Saigon Apparel for the rain
 * jacket in Navy and Forest, Navy finished, Forest still on the line.
 */

export interface OrderIds {
  readonly orders: Record<'po1' | 'po2', string>;
  readonly orderNumbers: Record<'po1' | 'po2', string>;
  readonly lines: Record<'po1' | 'po2', readonly OrderLine[]>;
  readonly totals: Record<'po1' | 'po2', string>;
  readonly productionRuns: Record<'po1' | 'po2', string>;
}

export async function seedOrders(context: SeedContext & { reference: ReferenceIds; parties: PartyIds; catalog: CatalogIds }): Promise<OrderIds> {
  const tee = await seedTeeOrder(context);
  const jacket = await seedJacketOrder(context);
  await seedProductionProgress({ ...context, tee, jacket });
  return {
    orders: { po1: tee.orderId, po2: jacket.orderId },
    orderNumbers: { po1: tee.code, po2: jacket.code },
    lines: { po1: tee.lines, po2: jacket.lines },
    totals: { po1: tee.total, po2: jacket.total },
    productionRuns: { po1: tee.runId, po2: jacket.runId },
  };
}
