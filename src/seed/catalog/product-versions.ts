import type { SeedContext } from '../seed-context.ts';
import type { ProductKey } from './products.ts';

/**
 * Specification versions and their measurement tables: a first proto of each
 * style, and the tee's salesman sample (v2) with its graded chest width and
 * fit notes.
 */

export type VersionKey = 'teeV1' | 'pocketTeeV1' | 'linenTeeV1' | 'rainJacketV1' | 'fleeceV1' | 'teeV2';

export interface ProductVersionIds {
  readonly versions: Record<VersionKey, string>;
  readonly measurementTables: Record<VersionKey | 'teeV2Fit', string>;
}

const BODY_SPECS = {
  unit: 'cm',
  points: [
    { pom: 'Chest width', sizes: { S: 48, M: 51, L: 54 } },
    { pom: 'Body length', sizes: { S: 68, M: 71, L: 74 } },
  ],
};

export async function seedProductVersions({ putNamed, brandId, products }: SeedContext & { products: Record<ProductKey, string> }): Promise<ProductVersionIds> {
  const versions = await putNamed('product-versions', brandId, {
    teeV1: { productId: products.tee, versionNumber: 1, name: 'Proto 1', status: 'superseded' },
    pocketTeeV1: { productId: products.pocketTee, versionNumber: 1, name: 'Proto 1', status: 'current' },
    linenTeeV1: { productId: products.linenTee, versionNumber: 1, name: 'Proto 1', status: 'current' },
    rainJacketV1: { productId: products.rainJacket, versionNumber: 1, name: 'Proto 1', status: 'current' },
    fleeceV1: { productId: products.fleece, versionNumber: 1, name: 'Proto 1', status: 'current' },
    teeV2: { productId: products.tee, versionNumber: 2, name: 'Salesman sample', status: 'current' },
  });
  const body = (productVersionId: string) => ({ productVersionId, name: 'Body measurements', sizeSpecs: BODY_SPECS });
  const measurementTables = await putNamed('measurement-tables', brandId, {
    teeV1: body(versions.teeV1),
    pocketTeeV1: body(versions.pocketTeeV1),
    linenTeeV1: body(versions.linenTeeV1),
    rainJacketV1: body(versions.rainJacketV1),
    fleeceV1: body(versions.fleeceV1),
    teeV2: {
      productVersionId: versions.teeV2,
      name: 'Body measurements',
      sizeSpecs: { unit: 'cm', points: [{ pom: 'Chest width', sizes: { S: 48.5, M: 51.5, L: 54.5 }, tolerance: 1 }] },
    },
    teeV2Fit: { productVersionId: versions.teeV2, name: 'Fit notes', sizeSpecs: null },
  });
  return { versions, measurementTables };
}
