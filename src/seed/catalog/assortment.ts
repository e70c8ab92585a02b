import type { ReferenceIds } from '../reference-data/reference-data.ts';
import type { SeedContext } from '../seed-context.ts';
import type { ColourwayKey } from './colourways.ts';
import type { ProductKey } from './products.ts';

/** The catalog's place in the season plan: which styles and colourways are in which collection, tag and drop. */
export async function seedAssortment({ put, brandId, reference, products, colourways }: SeedContext & {
  reference: ReferenceIds;
  products: Record<ProductKey, string>;
  colourways: Record<ColourwayKey, string>;
}): Promise<void> {
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
}
