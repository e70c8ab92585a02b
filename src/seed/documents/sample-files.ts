import type { CatalogIds } from '../catalog/catalog.ts';
import { documentFile, FILES_BASE_URL } from '../document-file.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { SourcingIds } from '../sourcing/sourcing.ts';
import { noteContent } from './note-content.ts';

/** Samples: the jacket's wash test report and photo, the notes on the rounds, and the tee's tech pack v2 once the proto passes. */
export async function seedSampleFiles({ put, clock, brandId, reference: { documentTypes }, catalog: { products, versions }, sourcing }: SeedContext & {
  reference: ReferenceIds;
  catalog: CatalogIds;
  sourcing: SourcingIds;
}): Promise<void> {
  clock.jumpTo('2026-02-13T15:00:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.testReport, entityType: 'sample', entityId: sourcing.samples.jacketFit,
      name: 'Wash test report, seam taping (5 cycles, 40 C)', fileName: 'SMP-NW-JK-001-01_wash-test_R1.pdf', sizeBytes: 612_408, uploadedByUserId: PEOPLE.buyer,
    }),
  ]);
  await put('images', brandId, [
    { entityType: 'sample', entityId: sourcing.samples.jacketFit, url: `${FILES_BASE_URL}/images/samples/SMP-NW-JK-001-01/R1-shoulder-seam.jpg`, altText: 'Seam tape lifting at the shoulder after 3 washes', sequence: 1, width: 1600, height: 1200, isPrimary: true },
  ]);
  await put('notes', brandId, [
    { entityType: 'product', entityId: products.rainJacket, lastEditedById: PEOPLE.designer, content: noteContent('Seam taping failed wash test; resample.') },
    { entityType: 'proto', entityId: sourcing.samples.teeProto, lastEditedById: PEOPLE.designer, content: noteContent('Round 1: neck rib too tight. Asked Porto for a 2 cm longer rib and +1.5 cm body length in M.') },
    { entityType: 'rfq', entityId: sourcing.quotes.teeSaigon, lastEditedById: PEOPLE.buyer, content: noteContent('Good price, but MOQ and lead time do not fit Drop 1. Keep Saigon for outerwear.') },
  ]);
  clock.jumpTo('2026-02-16T11:00:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.techPack, entityType: 'product_version', entityId: versions.teeV2,
      name: 'Everyday Organic Tee tech pack v2 (salesman sample)', fileName: 'NW-TS-001_techpack_v2.pdf', sizeBytes: 2_406_958, uploadedByUserId: PEOPLE.designer,
    }),
  ]);
}
