import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';

/**
 * The materials of the Everyday Organic Tee: organic jersey and rib from
 * Porto Knitwear; neck tape, labels and hangtags from Ningbo Trims; the
 * polybag. Each in the colours (variants) the BOMs use.
 */

export type MaterialKey = 'jersey' | 'rib' | 'neckTape' | 'mainLabel' | 'careLabel' | 'hangtag' | 'polybag';
export type MaterialVariantKey =
  | 'jerseyNavy' | 'jerseyOat' | 'jerseyForest' | 'ribNavy' | 'ribOat'
  | 'neckTapeNatural' | 'mainLabelNavy' | 'careLabelWhite' | 'hangtagKraft' | 'polybagClear';

export interface MaterialIds {
  readonly materials: Record<MaterialKey, string>;
  readonly variants: Record<MaterialVariantKey, string>;
}

export async function seedMaterials({ putNamed, brandId, reference, parties }: SeedContext & { reference: ReferenceIds; parties: PartyIds }): Promise<MaterialIds> {
  const { units, colors } = reference;
  const { suppliers } = parties;
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
  return { materials, variants };
}
