import type { SeedContext } from '../seed-context.ts';
import type { ShipmentLine } from './shipment-items.ts';

/** The legs of a shipment's journey, in order, each carrying every line of the shipment. */
export async function seedLegs({ put, brandId, shipmentId, lines, plan }: Pick<SeedContext, 'put' | 'brandId'> & {
  shipmentId: string;
  lines: readonly ShipmentLine[];
  /** Each leg's fields but its shipment and sequence. */
  plan: readonly Record<string, unknown>[];
}): Promise<void> {
  const records = await put('legs', brandId, plan.map((leg, i) => ({ shipmentId, sequence: i + 1, ...leg })));
  await put('leg-items', brandId, records.flatMap((leg) => lines.map((line) => ({ legId: leg.id, shipmentItemId: line.id, quantity: line.quantity }))));
}
