import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { insertRecords, type RecordInput } from '../db/insert-records.ts';
import type { Registry } from '../engine/registry.ts';

/**
 * The demo data set: Northwind Outfitters, an apparel brand in its spring
 * season, and Southpeak Supply, a second brand whose data Northwind's key
 * must never see. Records link by id the way a client follows them.
 */

export const DEMO_BRAND = Object.freeze({ slug: 'northwind', name: 'Northwind Outfitters' });
export const OTHER_BRAND = Object.freeze({ slug: 'southpeak', name: 'Southpeak Supply Co.' });

/** Timestamps a minute apart from the start of the season, so lists read in a believable order. */
function clock(start: string): () => string {
  let minutes = 0;
  const base = Date.parse(start);
  return () => new Date(base + 60_000 * minutes++).toISOString();
}

/** Loads the demo data unless the demo brand exists; true when it loaded. */
export async function seedDemo({ db, registry }: { db: Knex; registry: Registry }): Promise<boolean> {
  const exists = await db('brands').where({ slug: DEMO_BRAND.slug }).first();
  if (exists) return false;
  await db.transaction(async (trx) => {
    const at = clock('2026-01-05T09:00:00.000Z');
    const put = async (path: string, brandId: string | null, records: readonly RecordInput[]): Promise<void> => {
      const stamped = records.map((record) => {
        const fields = registry.get(path).fields.map((f) => f.name);
        const now = at();
        return {
          ...record,
          ...(fields.includes('createdAt') && record.createdAt === undefined ? { createdAt: now } : {}),
          ...(fields.includes('updatedAt') && record.updatedAt === undefined ? { updatedAt: now } : {}),
        };
      });
      await insertRecords({ db: trx, resource: registry.get(path), brandId, records: stamped });
    };

    const brand = randomUUID();
    const other = randomUUID();
    await put('brands', null, [
      { id: brand, ...DEMO_BRAND },
      { id: other, ...OTHER_BRAND },
    ]);

    // Reference data: shared units every brand sees, and one of Northwind's own.
    await put('units-of-measure', null, [
      { code: 'pcs', name: 'Pieces', type: 'count' },
      { code: 'cm', name: 'Centimetres', type: 'length' },
      { code: 'm', name: 'Metres', type: 'length' },
      { code: 'kg', name: 'Kilograms', type: 'weight' },
    ]);
    await put('units-of-measure', brand, [{ code: 'dz', name: 'Dozen', type: 'count' }]);
    await put('carton-sizes', brand, [
      { name: 'Small carton', lengthCm: '40.00', widthCm: '30.00', heightCm: '20.00' },
      { name: 'Medium carton', lengthCm: '60.00', widthCm: '40.00', heightCm: '40.00' },
      { name: 'Large carton', lengthCm: '80.00', widthCm: '60.00', heightCm: '50.00' },
    ]);
    await put('dimension-groups', brand, [{ name: 'Alpha sizes' }, { name: 'Numeric waist' }]);

    const tops = randomUUID();
    const tees = randomUUID();
    const outerwear = randomUUID();
    const jackets = randomUUID();
    await put('categories', brand, [
      { id: tops, name: 'Tops' },
      { id: tees, name: 'T-Shirts', parentId: tops },
      { id: outerwear, name: 'Outerwear' },
      { id: jackets, name: 'Jackets', parentId: outerwear },
    ]);

    const color = randomUUID();
    const size = randomUUID();
    await put('options', brand, [
      { id: color, name: 'Color' },
      { id: size, name: 'Size' },
    ]);
    await put('option-values', brand, [
      { optionId: color, name: 'Navy', code: 'NAV', status: 'active', sequence: 1, hexCode: '#1F2A44', swatchVersion: 2 },
      { optionId: color, name: 'Oat', code: 'OAT', status: 'active', sequence: 2, hexCode: '#E8DCC4', swatchVersion: 1 },
      { optionId: color, name: 'Forest', code: 'FOR', status: 'inactive', sequence: 3, hexCode: '#2F4F3A', swatchVersion: 1 },
      ...['XS', 'S', 'M', 'L', 'XL'].map((name, i) => ({ optionId: size, name, code: name, status: 'active', sequence: i + 1 })),
    ]);

    const tee = randomUUID();
    const pocketTee = randomUUID();
    const linenTee = randomUUID();
    const rainJacket = randomUUID();
    const fleece = randomUUID();
    const baseLayer = randomUUID();
    await put('products', brand, [
      { id: tee, code: 'NW-TS-001', name: 'Everyday Organic Tee', status: 'development', categoryId: tees },
      { id: pocketTee, code: 'NW-TS-002', name: 'Heavyweight Pocket Tee', status: 'approved', categoryId: tees },
      { id: linenTee, code: 'NW-TS-003', name: '100% Linen Tee', status: 'approved', categoryId: tees },
      { id: rainJacket, code: 'NW-JK-001', name: 'Coastline Rain Jacket', status: 'sampling', categoryId: jackets },
      { id: fleece, code: 'NW-JK-002', name: 'Ridge Fleece Jacket', status: 'approved', categoryId: jackets },
      { id: baseLayer, code: 'NW_BL_001', name: 'Merino Base Layer', status: 'development', categoryId: null },
    ]);

    const versions = [tee, pocketTee, linenTee, rainJacket, fleece].map((productId) => ({
      id: randomUUID(), productId, versionNumber: 1, name: 'Proto 1', status: 'superseded',
    }));
    const teeV2 = { id: randomUUID(), productId: tee, versionNumber: 2, name: 'Salesman sample', status: 'current' };
    await put('product-versions', brand, [...versions, teeV2]);
    await put('measurement-tables', brand, [
      ...versions.map((version) => ({
        productVersionId: version.id,
        name: 'Body measurements',
        sizeSpecs: { unit: 'cm', points: [{ pom: 'Chest width', sizes: { S: 48, M: 51, L: 54 } }, { pom: 'Body length', sizes: { S: 68, M: 71, L: 74 } }] },
      })),
      {
        productVersionId: teeV2.id,
        name: 'Body measurements',
        sizeSpecs: { unit: 'cm', points: [{ pom: 'Chest width', sizes: { S: 48.5, M: 51.5, L: 54.5 }, tolerance: 1 }] },
      },
      { productVersionId: teeV2.id, name: 'Fit notes', sizeSpecs: null },
    ]);
    const designer = randomUUID();
    await put('product-relations', brand, [
      { productId: tee, relatedProductId: pocketTee, relationType: 'alternative', createdByUserId: designer },
      { productId: rainJacket, relatedProductId: fleece, relationType: 'complements', createdByUserId: designer },
      { productId: fleece, relatedProductId: rainJacket, relationType: 'complements', createdByUserId: designer },
    ]);
    await put('notes', brand, [
      { entityType: 'product', entityId: tee, lastEditedById: designer, content: { type: 'doc', text: 'Switch to 180 gsm jersey for the salesman sample.' } },
      { entityType: 'product', entityId: rainJacket, lastEditedById: designer, content: { type: 'doc', text: 'Seam taping failed wash test; resample.' } },
      { entityType: 'order', entityId: randomUUID(), lastEditedById: designer, content: { type: 'doc', text: 'Split shipment agreed with the factory.' } },
    ]);

    // Logistics: one purchase order shipped in one shipment, partly received.
    const order = randomUUID();
    const shipment = randomUUID();
    const receipt = randomUUID();
    const orderItems = [randomUUID(), randomUUID(), randomUUID()];
    const skus = [randomUUID(), randomUUID(), randomUUID()];
    await put('order-shipments', brand, [{ orderId: order, shipmentId: shipment }]);
    await put('shipment-items', brand, ['NW-TS-001-NAV-M', 'NW-TS-001-NAV-L', 'NW-TS-001-OAT-M'].map((sku, i) => ({
      shipmentId: shipment,
      orderItemId: orderItems[i],
      sku,
      quantity: 120,
      receivedQuantity: i === 2 ? 0 : 120,
      purchaseOrderNumber: 'PO-2026-0001',
      lineNumber: i + 1,
      lineageOutcome: i === 2 ? 'pending' : 'matched',
      reconciledAt: i === 2 ? null : '2026-02-20T14:30:00.000Z',
    })));
    await put('goods-receipt-lines', brand, [
      { goodsReceiptId: receipt, orderItemId: orderItems[0], skuId: skus[0], qtyReceived: '120' },
      { goodsReceiptId: receipt, orderItemId: orderItems[1], skuId: skus[1], qtyReceived: '118.5' },
      { goodsReceiptId: receipt, orderItemId: orderItems[1], skuId: skus[1], qtyReceived: '1.5', deletedAt: '2026-02-21T08:00:00.000Z' },
    ]);

    // The second brand: enough to see that isolation holds.
    const southpeakCategory = randomUUID();
    await put('categories', other, [{ id: southpeakCategory, name: 'Tents' }]);
    await put('products', other, [{ code: 'SP-TN-001', name: 'Alpine Tee Tent', status: 'approved', categoryId: southpeakCategory }]);
    await put('carton-sizes', other, [{ name: 'Small carton', lengthCm: '45.00', widthCm: '35.00', heightCm: '25.00' }]);
    await put('units-of-measure', other, [{ code: 'pr', name: 'Pair', type: 'count' }]);
  });
  return true;
}
