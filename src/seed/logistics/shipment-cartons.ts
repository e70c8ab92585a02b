import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { money, sscc } from '../values.ts';
import type { ShipmentLine } from './shipment-items.ts';

/** Cartons: one size per carton, filled to the packing's count, the last carton of a line holding what is left. */

/** How a style is packed: units per carton, the carton size, and one full carton's volume and weights. */
export interface Packing {
  readonly unitsPerCarton: number;
  readonly cartonSize: keyof ReferenceIds['cartonSizes'];
  /** Cubic metres and kilograms of one full carton. */
  readonly cbm: number;
  readonly netKg: number;
  readonly grossKg: number;
}

export const TEE_PACKING: Packing = Object.freeze({ unitsPerCarton: 40, cartonSize: 'medium', cbm: 0.096, netKg: 8.8, grossKg: 9.8 });
export const JACKET_PACKING: Packing = Object.freeze({ unitsPerCarton: 10, cartonSize: 'large', cbm: 0.24, netKg: 6.2, grossKg: 7.7 });

/** Cartons a quantity fills. */
export function cartonsFor(quantity: number, packing: Packing): number {
  return Math.ceil(quantity / packing.unitsPerCarton);
}

/** The weights of a carton holding `quantity` units: the net goods, and the gross with the carton. */
export function cartonWeights(packing: Packing, quantity: number): { grossWeightKg: string; netWeightKg: string } {
  return {
    grossWeightKg: money(packing.grossKg - (packing.netKg * (packing.unitsPerCarton - quantity)) / packing.unitsPerCarton),
    netWeightKg: money((packing.netKg * quantity) / packing.unitsPerCarton),
  };
}

/** Cartons numbered from 1 in line order, and each line's first and last carton number, by line id. */
export function planCartons<L extends { readonly id: string; readonly quantity: number }>(lines: readonly L[], packing: Packing): {
  cartons: { line: L; quantity: number }[];
  ranges: Map<string, [number, number]>;
} {
  const cartons: { line: L; quantity: number }[] = [];
  const ranges = new Map<string, [number, number]>();
  for (const line of lines) {
    const first = cartons.length + 1;
    for (let left = line.quantity; left > 0; left -= packing.unitsPerCarton) cartons.push({ line, quantity: Math.min(left, packing.unitsPerCarton) });
    ranges.set(line.id, [first, cartons.length]);
  }
  return { cartons, ranges };
}

/** Writes the cartons of a shipment and what each holds, SSCCs from `ssccBase + 1`; returns each line's carton range. */
export async function seedShipmentCartons({ put, brandId, reference, shipmentId, lines, packing, ssccBase }: Pick<SeedContext, 'put' | 'brandId'> & {
  reference: ReferenceIds;
  shipmentId: string;
  lines: readonly ShipmentLine[];
  packing: Packing;
  ssccBase: number;
}): Promise<Map<string, [number, number]>> {
  const { cartons, ranges } = planCartons(lines, packing);
  const records = await put('shipment-cartons', brandId, cartons.map(({ quantity }, i) => ({
    shipmentId, cartonSizeId: reference.cartonSizes[packing.cartonSize], cartonNumber: i + 1, sscc: sscc(ssccBase + i + 1), ...cartonWeights(packing, quantity),
  })));
  await put('shipment-carton-items', brandId, cartons.map(({ line, quantity }, i) => ({
    shipmentCartonId: records[i]!.id, shipmentItemId: line.id, skuId: line.orderLine.sku.id, quantity,
  })));
  return ranges;
}
