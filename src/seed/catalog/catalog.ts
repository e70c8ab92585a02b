import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import { seedAssortment } from './assortment.ts';
import { seedColourways, type ColourwayKey } from './colourways.ts';
import { seedProductVersions } from './product-versions.ts';
import { seedProductRelations, seedProducts, type ProductKey } from './products.ts';
import { seedSkus, type SkuRef } from './skus.ts';

/**
 * The SS26 catalog: six styles in two categories, their specification
 * versions and measurement tables, colourways with sizes, prices and option
 * values, one SKU per colourway and size, and their place in the season's
 * collections, tags and launch windows.
 */

export interface CatalogIds {
  readonly products: Record<ProductKey, string>;
  readonly versions: Record<'teeV1' | 'teeV2' | 'rainJacketV1', string>;
  readonly colourways: Record<ColourwayKey, string>;
  readonly skus: readonly SkuRef[];
}

export async function seedCatalog(context: SeedContext & { reference: ReferenceIds }): Promise<CatalogIds> {
  context.clock.jumpTo('2026-01-12T09:00:00.000Z');
  const products = await seedProducts(context);
  const { versions, measurementTables } = await seedProductVersions({ ...context, products });
  await seedProductRelations({ ...context, products });
  const colourways = await seedColourways({ ...context, products });
  const skus = await seedSkus({ ...context, products, colourways, measurementTables });
  await seedAssortment({ ...context, products, colourways });
  return {
    products,
    versions: { teeV1: versions.teeV1, teeV2: versions.teeV2, rainJacketV1: versions.rainJacketV1 },
    colourways,
    skus,
  };
}
