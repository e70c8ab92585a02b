import type { OrderLine } from './order-lines.ts';
import type { RunItem } from './production-run.ts';

/** An order as written: its lines, its total, and the production run that makes it. */
export interface PlacedOrder {
  readonly orderId: string;
  readonly code: string;
  readonly lines: readonly OrderLine[];
  /** The order's total, a decimal string. */
  readonly total: string;
  readonly runId: string;
  /** The run's items, one per line in line order. */
  readonly runItems: readonly RunItem[];
}
