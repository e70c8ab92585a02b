import type { RecordInput } from '../../db/insert-records.ts';
import type { OrderLine } from '../orders/order-lines.ts';
import type { SeedContext } from '../seed-context.ts';

/** The lines of a shipment: one per order line it carries, naming the SKU by code as the forwarder's file does. */

/** A shipment line as later groups need it. */
export interface ShipmentLine {
  readonly id: string;
  readonly shipmentId: string;
  readonly orderLine: OrderLine;
  readonly quantity: number;
  readonly receivedQuantity: number;
}

/** How the lines were received: units counted in, the outcome of the reconciliation, and when it was done (null: not yet). */
export interface Reconciliation {
  readonly receivedOf: (line: OrderLine) => number;
  readonly outcomeOf: (line: OrderLine) => string;
  readonly reconciledAt: string | null;
}

/** The records of the lines, numbered from 1; each carries the order line's quantity and a new external id. */
export function shipmentItemRecords({ shipmentId, purchaseOrderNumber, lines, reconciliation: { receivedOf, outcomeOf, reconciledAt }, newId }: {
  shipmentId: string;
  purchaseOrderNumber: string;
  lines: readonly OrderLine[];
  reconciliation: Reconciliation;
  newId: () => string;
}): RecordInput[] {
  return lines.map((line, i) => ({
    shipmentId, orderItemId: line.id, sku: line.sku.code, quantity: line.quantity, receivedQuantity: receivedOf(line),
    purchaseOrderNumber, externalShipmentItemId: newId(), lineNumber: i + 1, lineageOutcome: outcomeOf(line), reconciledAt,
  }));
}

export async function seedShipmentItems({ put, newId, brandId, shipmentId, purchaseOrderNumber, lines, reconciliation }: Pick<SeedContext, 'put' | 'newId' | 'brandId'> & {
  shipmentId: string;
  purchaseOrderNumber: string;
  lines: readonly OrderLine[];
  reconciliation: Reconciliation;
}): Promise<ShipmentLine[]> {
  const records = await put('shipment-items', brandId, shipmentItemRecords({ shipmentId, purchaseOrderNumber, lines, reconciliation, newId }));
  return records.map((record, i) => ({
    id: record.id, shipmentId, orderLine: lines[i]!, quantity: lines[i]!.quantity, receivedQuantity: reconciliation.receivedOf(lines[i]!),
  }));
}
