import type { RecordInput } from '../../db/insert-records.ts';
import type { SeededRecord } from '../put.ts';
import type { SeedContext } from '../seed-context.ts';
import type { OrderLine } from './order-lines.ts';

/** A production run of an order: one item per order line, planned at the line's quantity, and the revisions of its progress. */

/** The run's items as written: each has `plannedQuantity` and `completedQuantity`. */
export type RunItem = SeededRecord;

export async function seedProductionRun({ put, brandId, run, lines, progressOf }: Pick<SeedContext, 'put' | 'brandId'> & {
  /** The run's own fields. */
  run: RecordInput;
  lines: readonly OrderLine[];
  /** How far the line has got: units completed and the item's status. */
  progressOf: (line: OrderLine) => { completedQuantity: number; status: string };
}): Promise<{ runId: string; items: RunItem[] }> {
  const [written] = await put('production-runs', brandId, [run]);
  const items = await put('production-run-items', brandId, lines.map((line) => ({
    productionRunId: written!.id, orderItemId: line.id, skuId: line.sku.id, plannedQuantity: line.quantity, ...progressOf(line),
  })));
  return { runId: written!.id, items };
}

/**
 * A revision of each item, effective at the given moment: the plan as
 * confirmed (nothing completed yet), or the item's completed quantity.
 */
export async function seedRunItemRevisions({ put, brandId, items, revisionNumber, completed, reason, effectiveAt }: Pick<SeedContext, 'put' | 'brandId'> & {
  items: readonly RunItem[];
  revisionNumber: number;
  completed: 'none' | 'as recorded';
  reason: string;
  effectiveAt: string;
}): Promise<void> {
  await put('production-run-item-revisions', brandId, items.map((item) => ({
    productionRunItemId: item.id, revisionNumber, plannedQuantity: item.plannedQuantity,
    completedQuantity: completed === 'none' ? 0 : item.completedQuantity, reason, effectiveAt,
  })));
}
