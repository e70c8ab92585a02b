import { COLOURS, SIZES, type Colour, type ReferenceIds, type Size } from './reference-data.ts';
import { PEOPLE } from './people.ts';
import { recordOf, type SeedContext } from './seed-context.ts';
import { ean13 } from './values.ts';

/**
 * The SS26 catalog: six styles in two categories, their specification
 * versions and measurement tables, colourways with sizes, prices and option
 * values, one SKU per colourway and size, and their place in the season's
 * collections, tags and launch windows.
 */

type ProductKey = 'tee' | 'pocketTee' | 'linenTee' | 'rainJacket' | 'fleece' | 'baseLayer';
type ColourwayKey =
  | 'teeNavy' | 'teeOat' | 'teeForest'
  | 'pocketTeeNavy' | 'pocketTeeOat'
  | 'linenTeeOat'
  | 'rainJacketNavy' | 'rainJacketForest'
  | 'fleeceForest' | 'fleeceOat';

/** A SKU as later groups need it: the order lines, shipments and receipts name it by id and by code. */
export interface SkuRef {
  readonly id: string;
  readonly code: string;
  readonly barcode: string;
  readonly productId: string;
  readonly productOptionId: string;
  readonly size: Size;
}

export interface CatalogIds {
  readonly products: Record<ProductKey, string>;
  readonly versions: Record<'teeV1' | 'teeV2' | 'rainJacketV1', string>;
  readonly colourways: Record<ColourwayKey, string>;
  readonly skus: readonly SkuRef[];
}

/** The SKUs of one colourway, XS to XL. */
export function skusOf(catalog: CatalogIds, productOptionId: string): SkuRef[] {
  return catalog.skus.filter((sku) => sku.productOptionId === productOptionId);
}

interface ColourwayPlan {
  readonly product: ProductKey;
  readonly colour: Colour;
  readonly status: string;
  /** Cost, wholesale (EUR, every market) and retail in NL (EUR) and the US (USD). */
  readonly prices: { cost: string; costCurrency: 'EUR' | 'USD'; wholesale: string; retailEur: string; retailUsd: string };
}

const PRODUCT_CODES: Readonly<Record<ProductKey, string>> = {
  tee: 'NW-TS-001',
  pocketTee: 'NW-TS-002',
  linenTee: 'NW-TS-003',
  rainJacket: 'NW-JK-001',
  fleece: 'NW-JK-002',
  baseLayer: 'NW_BL_001',
};

const PRODUCT_NAMES: Readonly<Record<ProductKey, string>> = {
  tee: 'Everyday Organic Tee',
  pocketTee: 'Heavyweight Pocket Tee',
  linenTee: '100% Linen Tee',
  rainJacket: 'Coastline Rain Jacket',
  fleece: 'Ridge Fleece Jacket',
  baseLayer: 'Merino Base Layer',
};

const TEE_PRICES = { cost: '4.20', costCurrency: 'EUR', wholesale: '14.00', retailEur: '29.95', retailUsd: '34.00' } as const;
const POCKET_PRICES = { cost: '5.80', costCurrency: 'EUR', wholesale: '18.50', retailEur: '39.95', retailUsd: '45.00' } as const;
const LINEN_PRICES = { cost: '9.40', costCurrency: 'EUR', wholesale: '27.50', retailEur: '59.95', retailUsd: '69.00' } as const;
const JACKET_PRICES = { cost: '17.40', costCurrency: 'USD', wholesale: '72.00', retailEur: '149.95', retailUsd: '169.00' } as const;
const FLEECE_PRICES = { cost: '14.10', costCurrency: 'USD', wholesale: '44.00', retailEur: '89.95', retailUsd: '99.00' } as const;

const COLOURWAYS: Readonly<Record<ColourwayKey, ColourwayPlan>> = {
  teeNavy: { product: 'tee', colour: 'navy', status: 'active', prices: TEE_PRICES },
  teeOat: { product: 'tee', colour: 'oat', status: 'active', prices: TEE_PRICES },
  teeForest: { product: 'tee', colour: 'forest', status: 'draft', prices: TEE_PRICES },
  pocketTeeNavy: { product: 'pocketTee', colour: 'navy', status: 'active', prices: POCKET_PRICES },
  pocketTeeOat: { product: 'pocketTee', colour: 'oat', status: 'active', prices: POCKET_PRICES },
  linenTeeOat: { product: 'linenTee', colour: 'oat', status: 'active', prices: LINEN_PRICES },
  rainJacketNavy: { product: 'rainJacket', colour: 'navy', status: 'active', prices: JACKET_PRICES },
  rainJacketForest: { product: 'rainJacket', colour: 'forest', status: 'active', prices: JACKET_PRICES },
  fleeceForest: { product: 'fleece', colour: 'forest', status: 'active', prices: FLEECE_PRICES },
  fleeceOat: { product: 'fleece', colour: 'oat', status: 'active', prices: FLEECE_PRICES },
};

export async function seedCatalog({ put, putNamed, clock, brandId, reference }: SeedContext & { reference: ReferenceIds }): Promise<CatalogIds> {
  clock.jumpTo('2026-01-12T09:00:00.000Z');
  const designerUserId = PEOPLE.designer;

  const tops = await putNamed('categories', brandId, { tops: { name: 'Tops', parentId: null } });
  const outerwear = await putNamed('categories', brandId, { outerwear: { name: 'Outerwear', parentId: null } });
  const subcategories = await putNamed('categories', brandId, {
    tees: { name: 'T-Shirts', parentId: tops.tops },
    jackets: { name: 'Jackets', parentId: outerwear.outerwear },
  });

  const products = await putNamed('products', brandId, {
    tee: { code: PRODUCT_CODES.tee, name: PRODUCT_NAMES.tee, status: 'approved', categoryId: subcategories.tees },
    pocketTee: { code: PRODUCT_CODES.pocketTee, name: PRODUCT_NAMES.pocketTee, status: 'approved', categoryId: subcategories.tees },
    linenTee: { code: PRODUCT_CODES.linenTee, name: PRODUCT_NAMES.linenTee, status: 'approved', categoryId: subcategories.tees },
    rainJacket: { code: PRODUCT_CODES.rainJacket, name: PRODUCT_NAMES.rainJacket, status: 'approved', categoryId: subcategories.jackets },
    fleece: { code: PRODUCT_CODES.fleece, name: PRODUCT_NAMES.fleece, status: 'approved', categoryId: subcategories.jackets },
    baseLayer: { code: PRODUCT_CODES.baseLayer, name: PRODUCT_NAMES.baseLayer, status: 'development', categoryId: null },
  });

  const versions = await putNamed('product-versions', brandId, {
    teeV1: { productId: products.tee, versionNumber: 1, name: 'Proto 1', status: 'superseded' },
    pocketTeeV1: { productId: products.pocketTee, versionNumber: 1, name: 'Proto 1', status: 'current' },
    linenTeeV1: { productId: products.linenTee, versionNumber: 1, name: 'Proto 1', status: 'current' },
    rainJacketV1: { productId: products.rainJacket, versionNumber: 1, name: 'Proto 1', status: 'current' },
    fleeceV1: { productId: products.fleece, versionNumber: 1, name: 'Proto 1', status: 'current' },
    teeV2: { productId: products.tee, versionNumber: 2, name: 'Salesman sample', status: 'current' },
  });
  const bodySpecs = {
    unit: 'cm',
    points: [
      { pom: 'Chest width', sizes: { S: 48, M: 51, L: 54 } },
      { pom: 'Body length', sizes: { S: 68, M: 71, L: 74 } },
    ],
  };
  const measurementTables = await putNamed('measurement-tables', brandId, {
    teeV1: { productVersionId: versions.teeV1, name: 'Body measurements', sizeSpecs: bodySpecs },
    pocketTeeV1: { productVersionId: versions.pocketTeeV1, name: 'Body measurements', sizeSpecs: bodySpecs },
    linenTeeV1: { productVersionId: versions.linenTeeV1, name: 'Body measurements', sizeSpecs: bodySpecs },
    rainJacketV1: { productVersionId: versions.rainJacketV1, name: 'Body measurements', sizeSpecs: bodySpecs },
    fleeceV1: { productVersionId: versions.fleeceV1, name: 'Body measurements', sizeSpecs: bodySpecs },
    teeV2: {
      productVersionId: versions.teeV2,
      name: 'Body measurements',
      sizeSpecs: { unit: 'cm', points: [{ pom: 'Chest width', sizes: { S: 48.5, M: 51.5, L: 54.5 }, tolerance: 1 }] },
    },
    teeV2Fit: { productVersionId: versions.teeV2, name: 'Fit notes', sizeSpecs: null },
  });
  await put('product-relations', brandId, [
    { productId: products.tee, relatedProductId: products.pocketTee, relationType: 'alternative', createdByUserId: designerUserId },
    { productId: products.rainJacket, relatedProductId: products.fleece, relationType: 'complements', createdByUserId: designerUserId },
    { productId: products.fleece, relatedProductId: products.rainJacket, relationType: 'complements', createdByUserId: designerUserId },
  ]);

  // Colourways, and what describes them: colour option value, sizes, prices.
  const plans = Object.entries(COLOURWAYS) as [ColourwayKey, ColourwayPlan][];
  const colourways = await putNamed('product-options', brandId, recordOf(plans.map(([key]) => key), (key) => {
    const plan = COLOURWAYS[key];
    return {
      productId: products[plan.product],
      colorId: reference.colors[plan.colour],
      code: COLOURS[plan.colour].code,
      name: `${PRODUCT_NAMES[plan.product]}, ${COLOURS[plan.colour].name}`,
      status: plan.status,
    };
  }));
  await put('product-option-values', brandId, plans.map(([key, plan]) => ({
    productOptionId: colourways[key], optionValueId: reference.colorOptionValues[plan.colour],
  })));
  await put('product-option-dimension-values', brandId, plans.flatMap(([key]) => SIZES.map((size) => ({
    productOptionId: colourways[key], dimensionValueId: reference.sizes[size],
  }))));
  await put('product-option-prices', brandId, plans.flatMap(([key, { prices }]) => [
    { productOptionId: colourways[key], priceType: 'cost', amount: prices.cost, currency: prices.costCurrency, countryId: null, validFrom: '2026-02-01' },
    { productOptionId: colourways[key], priceType: 'wholesale', amount: prices.wholesale, currency: 'EUR', countryId: null, validFrom: '2026-02-01' },
    { productOptionId: colourways[key], priceType: 'retail', amount: prices.retailEur, currency: 'EUR', countryId: reference.countries.NL, validFrom: '2026-04-15' },
    { productOptionId: colourways[key], priceType: 'retail', amount: prices.retailUsd, currency: 'USD', countryId: reference.countries.US, validFrom: '2026-04-15' },
  ]));

  // One SKU per colourway and size, with its size value and an EAN-13.
  let itemReference = 100;
  const skuRecords = await put('skus', brandId, plans.flatMap(([key, plan]) => SIZES.map((size) => {
    itemReference += 1;
    return {
      productId: products[plan.product],
      productOptionId: colourways[key],
      code: `${PRODUCT_CODES[plan.product]}-${COLOURS[plan.colour].code}-${size}`,
      barcode: ean13(itemReference),
      status: plan.status === 'draft' ? 'inactive' : 'active',
    };
  })));
  const skus: SkuRef[] = skuRecords.map((record, i) => ({
    id: record.id,
    code: record.code as string,
    barcode: record.barcode as string,
    productId: record.productId as string,
    productOptionId: record.productOptionId as string,
    size: SIZES[i % SIZES.length]!,
  }));
  await put('sku-dimension-values', brandId, skus.map((sku) => ({ skuId: sku.id, dimensionValueId: reference.sizes[sku.size] })));
  const graded = (productOptionId: string): SkuRef[] => skus.filter((sku) => sku.productOptionId === productOptionId && ['S', 'M', 'L'].includes(sku.size));
  await put('measurement-table-skus', brandId, [
    ...[colourways.teeNavy, colourways.teeOat].flatMap(graded).map((sku) => ({ measurementTableId: measurementTables.teeV2, skuId: sku.id })),
    ...[colourways.rainJacketNavy, colourways.rainJacketForest].flatMap(graded).map((sku) => ({ measurementTableId: measurementTables.rainJacketV1, skuId: sku.id })),
  ]);

  // The season plan.
  const { collections, tags, launchWindows } = reference;
  await put('product-collections', brandId, [
    { productId: products.tee, collectionId: collections.core },
    { productId: products.pocketTee, collectionId: collections.core },
    { productId: products.linenTee, collectionId: collections.coastal },
    { productId: products.rainJacket, collectionId: collections.coastal },
    { productId: products.fleece, collectionId: collections.coastal },
  ]);
  await put('product-option-collections', brandId, [
    { productOptionId: colourways.teeNavy, collectionId: collections.core },
    { productOptionId: colourways.teeOat, collectionId: collections.core },
    { productOptionId: colourways.teeForest, collectionId: collections.coastal },
    { productOptionId: colourways.rainJacketNavy, collectionId: collections.coastal },
    { productOptionId: colourways.rainJacketForest, collectionId: collections.coastal },
    { productOptionId: colourways.fleeceForest, collectionId: collections.coastal },
  ]);
  await put('product-tags', brandId, [
    { productId: products.tee, tagId: tags.organic },
    { productId: products.tee, tagId: tags.essentials },
    { productId: products.tee, tagId: tags.newIn },
    { productId: products.pocketTee, tagId: tags.organic },
    { productId: products.pocketTee, tagId: tags.essentials },
    { productId: products.linenTee, tagId: tags.newIn },
    { productId: products.rainJacket, tagId: tags.waterproof },
    { productId: products.rainJacket, tagId: tags.newIn },
  ]);
  await put('product-launch-windows', brandId, [
    { productId: products.tee, launchWindowId: launchWindows.drop1 },
    { productId: products.pocketTee, launchWindowId: launchWindows.drop1 },
    { productId: products.rainJacket, launchWindowId: launchWindows.drop2 },
    { productId: products.linenTee, launchWindowId: launchWindows.drop2 },
    { productId: products.fleece, launchWindowId: launchWindows.drop2 },
  ]);

  return {
    products,
    versions: { teeV1: versions.teeV1, teeV2: versions.teeV2, rainJacketV1: versions.rainJacketV1 },
    colourways,
    skus,
  };
}
