import { documentFile } from '../document-file.ts';
import type { LogisticsIds } from '../logistics/logistics.ts';
import type { OrderIds } from '../orders/orders.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { noteContent } from './note-content.ts';

/** Shipping: the bills of lading of both shipments, and the buyer's note on the split jacket shipment. */
export async function seedShippingFiles({ put, clock, brandId, reference: { documentTypes }, orders, logistics }: SeedContext & {
  reference: ReferenceIds;
  orders: OrderIds;
  logistics: LogisticsIds;
}): Promise<void> {
  clock.jumpTo('2026-03-31T19:00:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.billOfLading, entityType: 'shipment', entityId: logistics.shipments.sh1,
      name: 'Bill of lading MAEU261038457', fileName: 'MAEU261038457_BL.pdf', sizeBytes: 318_220, uploadedByUserId: PEOPLE.logistics,
    }),
  ]);
  clock.jumpTo('2026-04-10T08:00:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.billOfLading, entityType: 'shipment', entityId: logistics.shipments.sh2,
      name: 'Bill of lading MAEU261147702', fileName: 'MAEU261147702_BL.pdf', sizeBytes: 301_876, uploadedByUserId: PEOPLE.logistics,
    }),
  ]);
  await put('notes', brandId, [
    { entityType: 'order', entityId: orders.orders.po2, lastEditedById: PEOPLE.buyer, content: noteContent('Split shipment agreed with the factory: Navy sails now on SH-2026-0002, Forest follows.') },
  ]);
}
