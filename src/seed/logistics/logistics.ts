import type { CatalogIds } from '../catalog/catalog.ts';
import type { OrderIds } from '../orders/orders.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedGoodsReceipt } from './goods-receipt.ts';
import { seedPortoShipment } from './porto-shipment.ts';
import { seedSaigonShipment } from './saigon-shipment.ts';
import type { ShipmentLine } from './shipment-items.ts';

export type { ShipmentLine } from './shipment-items.ts';

/**
 * Logistics. SH-2026-0001 carries all of PO-2026-0001 from Porto: booked with
 * Atlas, trucked to Leixões, shipped to Rotterdam, trucked to the Tilburg DC,
 * counted in (two Navy L short) and put in stock. SH-2026-0002 carries the
 * Navy half of PO-2026-0002 from Saigon and is at sea.
 */

export interface LogisticsIds {
  readonly shipments: Record<'sh1' | 'sh2', string>;
  readonly shipmentLines: Record<'sh1' | 'sh2', readonly ShipmentLine[]>;
  readonly goodsReceipt: string;
}

export async function seedLogistics(context: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
  orders: OrderIds;
}): Promise<LogisticsIds> {
  const sh1 = await seedPortoShipment(context);
  const sh2 = await seedSaigonShipment(context);
  const goodsReceipt = await seedGoodsReceipt({ ...context, shipmentId: sh1.shipmentId, lines: sh1.lines });
  return {
    shipments: { sh1: sh1.shipmentId, sh2: sh2.shipmentId },
    shipmentLines: { sh1: sh1.lines, sh2: sh2.lines },
    goodsReceipt,
  };
}
