import { skusOf } from '../catalog/skus.ts';
import type { CatalogIds } from '../catalog/catalog.ts';
import type { PartyIds } from '../parties/parties.ts';
import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedMaterials, type MaterialKey, type MaterialVariantKey } from './materials.ts';

/**
 * The bill of materials of the Everyday Organic Tee v2: one BOM per ordered
 * colourway (Navy, Oat), limited to that colourway's SKUs, with the organic
 * jersey and rib from Porto Knitwear, labels, tape and hangtags from Ningbo
 * Trims, and the polybag.
 */

export interface BomIds {
  readonly materials: Record<MaterialKey, string>;
  readonly boms: Record<BomKey, string>;
}

type BomKey = 'teeNavy' | 'teeOat';
type SectionKey = 'fabric' | 'trims' | 'packaging';

/** A line of the BOM: the variant is the same in both BOMs, or one per colourway (the jersey and rib are dyed to match). */
interface ComponentPlan {
  readonly section: SectionKey;
  readonly material: MaterialKey;
  readonly variant: MaterialVariantKey | Readonly<Record<BomKey, MaterialVariantKey>>;
  readonly placement: string;
  readonly quantity: string;
  readonly unit: 'm' | 'pcs';
  readonly wastagePercent: string;
  readonly sequence: number;
}

const COMPONENTS: readonly ComponentPlan[] = [
  { section: 'fabric', material: 'jersey', variant: { teeNavy: 'jerseyNavy', teeOat: 'jerseyOat' }, placement: 'body and sleeves', quantity: '0.850', unit: 'm', wastagePercent: '8.00', sequence: 1 },
  { section: 'fabric', material: 'rib', variant: { teeNavy: 'ribNavy', teeOat: 'ribOat' }, placement: 'neckband', quantity: '0.060', unit: 'm', wastagePercent: '5.00', sequence: 2 },
  { section: 'trims', material: 'neckTape', variant: 'neckTapeNatural', placement: 'back neck', quantity: '0.180', unit: 'm', wastagePercent: '3.00', sequence: 1 },
  { section: 'trims', material: 'mainLabel', variant: 'mainLabelNavy', placement: 'centre back neck', quantity: '1.000', unit: 'pcs', wastagePercent: '1.00', sequence: 2 },
  { section: 'trims', material: 'careLabel', variant: 'careLabelWhite', placement: 'left side seam', quantity: '1.000', unit: 'pcs', wastagePercent: '1.00', sequence: 3 },
  { section: 'trims', material: 'hangtag', variant: 'hangtagKraft', placement: 'swing tag through main label', quantity: '1.000', unit: 'pcs', wastagePercent: '0.00', sequence: 4 },
  { section: 'packaging', material: 'polybag', variant: 'polybagClear', placement: 'folded garment', quantity: '1.000', unit: 'pcs', wastagePercent: '2.00', sequence: 1 },
];

export async function seedBillOfMaterials(context: SeedContext & { reference: ReferenceIds; parties: PartyIds; catalog: CatalogIds }): Promise<BomIds> {
  const { put, putNamed, clock, brandId, reference: { units }, catalog } = context;
  clock.jumpTo('2026-01-19T09:00:00.000Z');
  const { materials, variants } = await seedMaterials(context);
  const boms = await putNamed('boms', brandId, {
    teeNavy: { productId: catalog.products.tee, productVersionId: catalog.versions.teeV2, code: 'BOM-NW-TS-001-V2-NAV', name: 'Everyday Organic Tee v2, Navy', status: 'approved' },
    teeOat: { productId: catalog.products.tee, productVersionId: catalog.versions.teeV2, code: 'BOM-NW-TS-001-V2-OAT', name: 'Everyday Organic Tee v2, Oat', status: 'approved' },
  });
  for (const key of ['teeNavy', 'teeOat'] as const) {
    const bomId = boms[key];
    const sections = await putNamed('bom-sections', brandId, {
      fabric: { bomId, name: 'Fabric', sequence: 1 },
      trims: { bomId, name: 'Trims', sequence: 2 },
      packaging: { bomId, name: 'Packaging', sequence: 3 },
    });
    await put('bom-components', brandId, COMPONENTS.map((line) => ({
      bomId,
      bomSectionId: sections[line.section],
      materialId: materials[line.material],
      materialVariantId: variants[typeof line.variant === 'string' ? line.variant : line.variant[key]],
      placement: line.placement,
      quantity: line.quantity,
      unitOfMeasureId: units[line.unit],
      wastagePercent: line.wastagePercent,
      sequence: line.sequence,
    })));
    await put('bom-skus', brandId, skusOf(catalog, catalog.colourways[key]).map((sku) => ({ bomId, skuId: sku.id })));
  }
  return { materials, boms };
}
