import type { ReferenceIds } from './reference-data/reference-data.ts';
import type { SeedContext } from './seed-context.ts';
import { ean13 } from './values.ts';

/**
 * Southpeak Supply Co., the second brand: a little of everything (a tent, its
 * colourway and SKUs, a supplier and an order), so that a Northwind key can be
 * seen never to reach it. It uses the shared countries and units like anyone.
 */
export async function seedSouthpeak({ put, putNamed, clock, brandId, reference }: SeedContext & { reference: ReferenceIds }): Promise<void> {
  clock.jumpTo('2026-01-07T09:00:00.000Z');
  await put('units-of-measure', brandId, [{ code: 'pr', name: 'Pair', type: 'count' }]);
  await put('carton-sizes', brandId, [{ name: 'Small carton', lengthCm: '45.00', widthCm: '35.00', heightCm: '25.00' }]);
  const colors = await putNamed('colors', brandId, { sand: { code: 'SND', name: 'Sand', hexCode: '#C8B68E', pantoneCode: '14-1116 TCX', status: 'active' } });
  const collections = await putNamed('collections', brandId, { trail: { code: 'FW26-TRAIL', name: 'FW26 Trail', season: 'FW26', status: 'planning' } });
  const tags = await putNamed('tags', brandId, { ultralight: { name: 'Ultralight', code: 'ultralight' } });
  const categories = await putNamed('categories', brandId, { tents: { name: 'Tents', parentId: null } });
  const products = await putNamed('products', brandId, {
    tent: { code: 'SP-TN-001', name: 'Alpine Tee Tent', status: 'approved', categoryId: categories.tents },
  });
  await put('product-collections', brandId, [{ productId: products.tent, collectionId: collections.trail }]);
  await put('product-tags', brandId, [{ productId: products.tent, tagId: tags.ultralight }]);
  const options = await putNamed('product-options', brandId, {
    sand: { productId: products.tent, colorId: colors.sand, code: 'SND', name: 'Alpine Tee Tent, Sand', status: 'active' },
  });
  const skus = await putNamed('skus', brandId, {
    twoPerson: { productId: products.tent, productOptionId: options.sand, code: 'SP-TN-001-SND-2P', barcode: ean13(90_001), status: 'active' },
    threePerson: { productId: products.tent, productOptionId: options.sand, code: 'SP-TN-001-SND-3P', barcode: ean13(90_002), status: 'active' },
  });

  const partners = await putNamed('partners', brandId, {
    hangzhou: { code: 'HZO', name: 'Hangzhou Outdoor Gear Co.', type: 'factory', status: 'active', countryId: reference.countries.CN, website: 'https://www.hzoutdoor.cn' },
  });
  const locations = await putNamed('locations', brandId, {
    dc: {
      code: 'SP-DC-DEN', name: 'Southpeak DC Denver', type: 'warehouse', addressLine1: '4800 Dahlia Street', addressLine2: null,
      city: 'Denver', region: 'Colorado', postalCode: '80216', countryId: reference.countries.US, latitude: '39.783700', longitude: '-104.931100',
    },
  });
  const suppliers = await putNamed('suppliers', brandId, {
    hangzhou: {
      partnerId: partners.hangzhou, code: 'SUP-HZO', name: 'Hangzhou Outdoor Gear Co.', status: 'active',
      countryId: reference.countries.CN, paymentTermId: reference.paymentTerms.net30, currency: 'USD', leadTimeDays: 75,
    },
  });

  clock.jumpTo('2026-02-10T15:00:00.000Z');
  const orders = await putNamed('orders', brandId, {
    first: {
      supplierId: suppliers.hangzhou, code: 'SP-PO-26-001', status: 'confirmed', currency: 'USD', orderedOn: '2026-02-10', requestedDeliveryOn: '2026-06-30',
      incoterm: 'FOB', totalAmount: '14500.00', paymentTermId: reference.paymentTerms.net30, deliveryLocationId: locations.dc,
    },
  });
  await put('order-items', brandId, [
    { orderId: orders.first, productId: products.tent, productOptionId: options.sand, skuId: skus.twoPerson, lineNumber: 1, quantity: 200, unitPrice: '38.00', currency: 'USD', status: 'confirmed' },
    { orderId: orders.first, productId: products.tent, productOptionId: options.sand, skuId: skus.threePerson, lineNumber: 2, quantity: 150, unitPrice: '46.00', currency: 'USD', status: 'confirmed' },
  ]);
  await put('notes', brandId, [
    { entityType: 'order', entityId: orders.first, lastEditedById: null, content: { type: 'doc', text: 'Fly sheet colour approved from the lab dip.' } },
  ]);
}
