import { PEOPLE } from '../people.ts';
import type { SeedContext } from '../seed-context.ts';

/** The six SS26 styles, in two categories (the base layer is still in development, uncategorised), and how they relate. */

export type ProductKey = 'tee' | 'pocketTee' | 'linenTee' | 'rainJacket' | 'fleece' | 'baseLayer';

export const PRODUCT_CODES: Readonly<Record<ProductKey, string>> = {
  tee: 'NW-TS-001',
  pocketTee: 'NW-TS-002',
  linenTee: 'NW-TS-003',
  rainJacket: 'NW-JK-001',
  fleece: 'NW-JK-002',
  baseLayer: 'NW_BL_001',
};

export const PRODUCT_NAMES: Readonly<Record<ProductKey, string>> = {
  tee: 'Everyday Organic Tee',
  pocketTee: 'Heavyweight Pocket Tee',
  linenTee: '100% Linen Tee',
  rainJacket: 'Coastline Rain Jacket',
  fleece: 'Ridge Fleece Jacket',
  baseLayer: 'Merino Base Layer',
};

export async function seedProducts({ putNamed, brandId }: SeedContext): Promise<Record<ProductKey, string>> {
  const tops = await putNamed('categories', brandId, { tops: { name: 'Tops', parentId: null } });
  const outerwear = await putNamed('categories', brandId, { outerwear: { name: 'Outerwear', parentId: null } });
  const subcategories = await putNamed('categories', brandId, {
    tees: { name: 'T-Shirts', parentId: tops.tops },
    jackets: { name: 'Jackets', parentId: outerwear.outerwear },
  });
  const product = (key: ProductKey, status: string, categoryId: string | null) => ({ code: PRODUCT_CODES[key], name: PRODUCT_NAMES[key], status, categoryId });
  return putNamed('products', brandId, {
    tee: product('tee', 'approved', subcategories.tees),
    pocketTee: product('pocketTee', 'approved', subcategories.tees),
    linenTee: product('linenTee', 'approved', subcategories.tees),
    rainJacket: product('rainJacket', 'approved', subcategories.jackets),
    fleece: product('fleece', 'approved', subcategories.jackets),
    baseLayer: product('baseLayer', 'development', null),
  });
}

/** The designer's links between styles: an alternative to the tee, the jacket and fleece that go together. */
export async function seedProductRelations({ put, brandId, products }: SeedContext & { products: Record<ProductKey, string> }): Promise<void> {
  const createdByUserId = PEOPLE.designer;
  await put('product-relations', brandId, [
    { productId: products.tee, relatedProductId: products.pocketTee, relationType: 'alternative', createdByUserId },
    { productId: products.rainJacket, relatedProductId: products.fleece, relationType: 'complements', createdByUserId },
    { productId: products.fleece, relatedProductId: products.rainJacket, relationType: 'complements', createdByUserId },
  ]);
}
