import type { SeedContext } from '../seed-context.ts';
import type { ShipmentLine } from './shipment-items.ts';

/** The supplier's packing list of a shipment and its lines, each naming its range of cartons. */
export async function seedPackingList({ put, brandId, header, lines, cartonRanges }: Pick<SeedContext, 'put' | 'brandId'> & {
  header: { id: string; shipmentId: string; supplierId: string; code: string; status: string; issuedOn: string; documentId: string | null };
  lines: readonly ShipmentLine[];
  /** Each shipment line's first and last carton, by shipment item id. */
  cartonRanges: Map<string, [number, number]>;
}): Promise<Map<string, string>> {
  const totalCartons = Math.max(...[...cartonRanges.values()].map(([, last]) => last));
  await put('packing-lists', brandId, [{ ...header, totalCartons, totalUnits: lines.reduce((sum, line) => sum + line.quantity, 0) }]);
  const records = await put('packing-list-lines', brandId, lines.map((line, i) => {
    const [cartonFrom, cartonTo] = cartonRanges.get(line.id)!;
    return { packingListId: header.id, orderItemId: line.orderLine.id, skuId: line.orderLine.sku.id, lineNumber: i + 1, cartonFrom, cartonTo, quantity: line.quantity };
  }));
  // Packing-list line ids by shipment item id.
  return new Map(lines.map((line, i) => [line.id, records[i]!.id]));
}
