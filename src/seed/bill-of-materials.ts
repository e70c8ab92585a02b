import { skusOf, type CatalogIds } from './catalog.ts';
import type { PartyIds } from './parties.ts';
import type { ReferenceIds } from './reference-data.ts';
import type { SeedContext } from './seed-context.ts';

/**
 * The bill of materials of the Everyday Organic Tee v2: one BOM per ordered
 * colourway (Navy, Oat), limited to that colourway's SKUs, with the organic
 * jersey and rib from Porto Knitwear, labels, tape and hangtags from Ningbo
 * Trims, and the polybag.
 */

export interface BomIds {
  readonly materials: Record<'jersey' | 'rib' | 'neckTape' | 'mainLabel' | 'careLabel' | 'hangtag' | 'polybag', string>;
  readonly boms: Record<'teeNavy' | 'teeOat', string>;
}

export async function seedBillOfMaterials({ put, putNamed, clock, brandId, reference, parties, catalog }: SeedContext & {
  reference: ReferenceIds;
  parties: PartyIds;
  catalog: CatalogIds;
}): Promise<BomIds> {
  const { units, colors } = reference;
  const { suppliers } = parties;
  clock.jumpTo('2026-01-19T09:00:00.000Z');

  const materials = await putNamed('materials', brandId, {
    jersey: {
      supplierId: suppliers.porto, code: 'MAT-JER-180', name: 'Organic cotton single jersey 180 gsm', type: 'fabric',
      composition: '100% organic cotton (GOTS certified)', weightGsm: '180.00', unitOfMeasureId: units.m, status: 'active',
    },
    rib: {
      supplierId: suppliers.porto, code: 'MAT-RIB-220', name: 'Organic cotton 1x1 rib 220 gsm', type: 'fabric',
      composition: '95% organic cotton, 5% elastane', weightGsm: '220.00', unitOfMeasureId: units.m, status: 'active',
    },
    neckTape: {
      supplierId: suppliers.ningbo, code: 'MAT-TAPE-10', name: 'Herringbone neck tape 10 mm', type: 'trim',
      composition: '100% cotton', weightGsm: null, unitOfMeasureId: units.m, status: 'active',
    },
    mainLabel: {
      supplierId: suppliers.ningbo, code: 'MAT-LBL-MAIN', name: 'Woven main label, Northwind logo', type: 'label',
      composition: '100% recycled polyester', weightGsm: null, unitOfMeasureId: units.pcs, status: 'active',
    },
    careLabel: {
      supplierId: suppliers.ningbo, code: 'MAT-LBL-CARE', name: 'Printed care and size label', type: 'label',
      composition: '100% polyester satin', weightGsm: null, unitOfMeasureId: units.pcs, status: 'active',
    },
    hangtag: {
      supplierId: suppliers.ningbo, code: 'MAT-HT-FSC', name: 'Hangtag, FSC recycled board with cotton string', type: 'trim',
      composition: 'FSC recycled board', weightGsm: '350.00', unitOfMeasureId: units.dozen, status: 'active',
    },
    polybag: {
      supplierId: suppliers.ningbo, code: 'MAT-PB-3040', name: 'Recycled LDPE polybag 30 x 40 cm, self-seal', type: 'packaging',
      composition: '100% recycled LDPE', weightGsm: null, unitOfMeasureId: units.pcs, status: 'active',
    },
  });
  const variants = await putNamed('material-variants', brandId, {
    jerseyNavy: { materialId: materials.jersey, colorId: colors.navy, code: 'MAT-JER-180-NAV', name: 'Jersey 180, Navy', status: 'active' },
    jerseyOat: { materialId: materials.jersey, colorId: colors.oat, code: 'MAT-JER-180-OAT', name: 'Jersey 180, Oat', status: 'active' },
    jerseyForest: { materialId: materials.jersey, colorId: colors.forest, code: 'MAT-JER-180-FOR', name: 'Jersey 180, Forest', status: 'active' },
    ribNavy: { materialId: materials.rib, colorId: colors.navy, code: 'MAT-RIB-220-NAV', name: 'Rib 220, Navy', status: 'active' },
    ribOat: { materialId: materials.rib, colorId: colors.oat, code: 'MAT-RIB-220-OAT', name: 'Rib 220, Oat', status: 'active' },
    neckTapeNatural: { materialId: materials.neckTape, colorId: colors.oat, code: 'MAT-TAPE-10-NAT', name: 'Neck tape, natural', status: 'active' },
    mainLabelNavy: { materialId: materials.mainLabel, colorId: colors.navy, code: 'MAT-LBL-MAIN-NAV', name: 'Main label, navy ground, white logo', status: 'active' },
    careLabelWhite: { materialId: materials.careLabel, colorId: null, code: 'MAT-LBL-CARE-WHT', name: 'Care label, white', status: 'active' },
    hangtagKraft: { materialId: materials.hangtag, colorId: null, code: 'MAT-HT-FSC-KRF', name: 'Hangtag, natural kraft', status: 'active' },
    polybagClear: { materialId: materials.polybag, colorId: null, code: 'MAT-PB-3040-CLR', name: 'Polybag, clear', status: 'active' },
  });

  const boms = await putNamed('boms', brandId, {
    teeNavy: { productId: catalog.products.tee, productVersionId: catalog.versions.teeV2, code: 'BOM-NW-TS-001-V2-NAV', name: 'Everyday Organic Tee v2, Navy', status: 'approved' },
    teeOat: { productId: catalog.products.tee, productVersionId: catalog.versions.teeV2, code: 'BOM-NW-TS-001-V2-OAT', name: 'Everyday Organic Tee v2, Oat', status: 'approved' },
  });

  const colourVariants: Record<'teeNavy' | 'teeOat', { jersey: string; rib: string }> = {
    teeNavy: { jersey: variants.jerseyNavy, rib: variants.ribNavy },
    teeOat: { jersey: variants.jerseyOat, rib: variants.ribOat },
  };
  for (const key of ['teeNavy', 'teeOat'] as const) {
    const bomId = boms[key];
    const sections = await putNamed('bom-sections', brandId, {
      fabric: { bomId, name: 'Fabric', sequence: 1 },
      trims: { bomId, name: 'Trims', sequence: 2 },
      packaging: { bomId, name: 'Packaging', sequence: 3 },
    });
    const line = (section: string, materialId: string, materialVariantId: string, placement: string, quantity: string, unitOfMeasureId: string, wastagePercent: string, sequence: number) => ({
      bomId, bomSectionId: section, materialId, materialVariantId, placement, quantity, unitOfMeasureId, wastagePercent, sequence,
    });
    const { jersey, rib } = colourVariants[key];
    await put('bom-components', brandId, [
      line(sections.fabric, materials.jersey, jersey, 'body and sleeves', '0.850', units.m, '8.00', 1),
      line(sections.fabric, materials.rib, rib, 'neckband', '0.060', units.m, '5.00', 2),
      line(sections.trims, materials.neckTape, variants.neckTapeNatural, 'back neck', '0.180', units.m, '3.00', 1),
      line(sections.trims, materials.mainLabel, variants.mainLabelNavy, 'centre back neck', '1.000', units.pcs, '1.00', 2),
      line(sections.trims, materials.careLabel, variants.careLabelWhite, 'left side seam', '1.000', units.pcs, '1.00', 3),
      line(sections.trims, materials.hangtag, variants.hangtagKraft, 'swing tag through main label', '1.000', units.pcs, '0.00', 4),
      line(sections.packaging, materials.polybag, variants.polybagClear, 'folded garment', '1.000', units.pcs, '2.00', 1),
    ]);
    await put('bom-skus', brandId, skusOf(catalog, catalog.colourways[key]).map((sku) => ({ bomId, skuId: sku.id })));
  }

  return { materials, boms };
}
