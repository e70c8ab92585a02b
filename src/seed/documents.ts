import type { RecordInput } from '../db/insert-records.ts';
import type { BomIds } from './bill-of-materials.ts';
import type { CatalogIds } from './catalog.ts';
import type { FinanceIds } from './finance.ts';
import type { LogisticsIds } from './logistics.ts';
import type { OrderIds } from './orders.ts';
import type { PartyIds } from './parties.ts';
import { PEOPLE } from './people.ts';
import type { ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';
import type { SourcingIds } from './sourcing.ts';

/**
 * Attachments: the files (typed by document type), images and notes that
 * hang off records through `entityType` + `entityId`. Files that another
 * record points at (a packing list's PDF, a payment's bank confirmation) are
 * written by their group with `documentFile`, just before the record.
 */

const FILES_BASE_URL = 'https://files.northwind.example';

/** A document record: a PDF attached to one record. */
export function documentFile({ documentTypeId, entityType, entityId, name, fileName, sizeBytes, uploadedByUserId, id }: {
  documentTypeId: string;
  entityType: string;
  entityId: string;
  name: string;
  fileName: string;
  sizeBytes: number;
  uploadedByUserId: string;
  id?: string;
}): RecordInput {
  return {
    ...(id ? { id } : {}),
    documentTypeId,
    entityType,
    entityId,
    name,
    fileName,
    mimeType: 'application/pdf',
    sizeBytes,
    url: `${FILES_BASE_URL}/documents/${entityType}/${entityId}/${fileName}`,
    uploadedByUserId,
  };
}

/** A rich-text note body as the editor stores it. */
function noteContent(...paragraphs: string[]): Record<string, unknown> {
  return {
    type: 'doc',
    text: paragraphs.join('\n\n'),
    content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
  };
}

export async function seedDocuments({ put, clock, brandId, reference, parties, catalog, bom, sourcing, orders, logistics, finance }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
  bom: BomIds;
  sourcing: SourcingIds;
  orders: OrderIds;
  logistics: LogisticsIds;
  finance: FinanceIds;
}): Promise<void> {
  const { documentTypes } = reference;
  const { products, versions, colourways } = catalog;

  // Development: tech packs, product shots, swatches, the designer's notes.
  clock.jumpTo('2026-01-13T14:00:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.techPack, entityType: 'product_version', entityId: versions.teeV1,
      name: 'Everyday Organic Tee tech pack v1', fileName: 'NW-TS-001_techpack_v1.pdf', sizeBytes: 2_184_311, uploadedByUserId: PEOPLE.designer,
    }),
    documentFile({
      documentTypeId: documentTypes.techPack, entityType: 'product_version', entityId: versions.rainJacketV1,
      name: 'Coastline Rain Jacket tech pack v1', fileName: 'NW-JK-001_techpack_v1.pdf', sizeBytes: 3_902_774, uploadedByUserId: PEOPLE.designer,
    }),
  ]);
  const productShots: [string, string, string][] = [
    [products.tee, 'NW-TS-001', 'Everyday Organic Tee, front'],
    [products.pocketTee, 'NW-TS-002', 'Heavyweight Pocket Tee, front'],
    [products.linenTee, 'NW-TS-003', '100% Linen Tee, front'],
    [products.rainJacket, 'NW-JK-001', 'Coastline Rain Jacket, front, hood up'],
    [products.fleece, 'NW-JK-002', 'Ridge Fleece Jacket, front'],
    [products.baseLayer, 'NW_BL_001', 'Merino Base Layer, flat lay'],
  ];
  await put('images', brandId, [
    ...productShots.map(([entityId, code, altText]) => ({
      entityType: 'product', entityId, url: `${FILES_BASE_URL}/images/products/${code}/front.jpg`, altText, sequence: 1, width: 2000, height: 2500, isPrimary: true,
    })),
    { entityType: 'product', entityId: products.tee, url: `${FILES_BASE_URL}/images/products/NW-TS-001/back.jpg`, altText: 'Everyday Organic Tee, back', sequence: 2, width: 2000, height: 2500, isPrimary: false },
    { entityType: 'product', entityId: products.tee, url: `${FILES_BASE_URL}/images/products/NW-TS-001/detail-neck.jpg`, altText: 'Everyday Organic Tee, neckband detail', sequence: 3, width: 2000, height: 2000, isPrimary: false },
    ...([['teeNavy', 'NAV', 'Navy'], ['teeOat', 'OAT', 'Oat'], ['teeForest', 'FOR', 'Forest']] as const).map(([key, code, colour], i) => ({
      entityType: 'product_option', entityId: colourways[key], url: `${FILES_BASE_URL}/images/products/NW-TS-001/${code}/front.jpg`,
      altText: `Everyday Organic Tee in ${colour}`, sequence: i + 1, width: 2000, height: 2500, isPrimary: true,
    })),
    { entityType: 'material', entityId: bom.materials.jersey, url: `${FILES_BASE_URL}/images/materials/MAT-JER-180/swatch.jpg`, altText: 'Organic jersey 180 gsm swatch', sequence: 1, width: 1200, height: 1200, isPrimary: true },
  ]);
  await put('notes', brandId, [
    { entityType: 'product', entityId: products.tee, lastEditedById: PEOPLE.designer, content: noteContent('Switch to 180 gsm jersey for the salesman sample.') },
  ]);

  // Samples: the jacket's wash test report, the proto photo, the notes on them.
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

  // The order.
  clock.jumpTo('2026-02-27T15:00:00.000Z');
  await put('notes', brandId, [
    { entityType: 'order', entityId: orders.orders.po1, lastEditedById: PEOPLE.buyer, content: noteContent('Navy L raised to 120 after wholesale pre-orders (amendment 1). Porto confirmed the same unit price.') },
    { entityType: 'partner', entityId: parties.partners.porto, lastEditedById: PEOPLE.buyer, content: noteContent('GOTS scope certificate valid until 2027-01-31. Social audit (SMETA 4-pillar) passed in November 2025.') },
  ]);

  // Shipping: the bills of lading.
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

  // Invoicing: the commercial invoice PDF, and the freight invoice.
  clock.jumpTo('2026-03-30T17:30:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.commercialInvoice, entityType: 'invoice', entityId: finance.invoices.commercial,
      name: 'Commercial invoice FT 2026/0142', fileName: 'PKW_FT-2026-0142.pdf', sizeBytes: 184_552, uploadedByUserId: PEOPLE.finance,
    }),
  ]);
  clock.jumpTo('2026-04-10T10:30:00.000Z');
  await put('documents', brandId, [
    documentFile({
      documentTypeId: documentTypes.freightInvoice, entityType: 'invoice', entityId: finance.invoices.freight,
      name: 'Freight invoice ATL-26-0918', fileName: 'ATL-26-0918.pdf', sizeBytes: 96_114, uploadedByUserId: PEOPLE.finance,
    }),
  ]);
}
