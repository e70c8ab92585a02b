import type { BomIds } from '../bill-of-materials/bill-of-materials.ts';
import type { CatalogIds } from '../catalog/catalog.ts';
import { documentFile, FILES_BASE_URL } from '../document-file.ts';
import { PEOPLE } from '../people.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { noteContent } from './note-content.ts';

/** Development: the first tech packs, product shots, colourway shots and a fabric swatch, and the designer's note. */
export async function seedDevelopmentFiles({ put, clock, brandId, reference: { documentTypes }, catalog: { products, versions, colourways }, bom }: SeedContext & {
  reference: ReferenceIds;
  catalog: CatalogIds;
  bom: BomIds;
}): Promise<void> {
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
}
