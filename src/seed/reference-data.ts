import { recordOf, type SeedContext } from './seed-context.ts';

/**
 * Reference data: what every other group points at. Countries, couriers,
 * payment terms, document types and units are shared rows (no brand); the rest
 * is Northwind's own palette, sizes, size curve, checklists and season plan.
 */

export const SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export type Size = (typeof SIZES)[number];

/** The season's size curve: units per size in a buy of one ratio pack. */
export const CURVE_RATIO: Readonly<Record<Size, number>> = Object.freeze({ XS: 1, S: 2, M: 3, L: 2, XL: 1 });

export const COLOURS = Object.freeze({
  navy: { code: 'NAV', name: 'Navy', hexCode: '#1F2A44', pantoneCode: '19-4024 TCX' },
  oat: { code: 'OAT', name: 'Oat', hexCode: '#E8DCC4', pantoneCode: '12-0910 TCX' },
  forest: { code: 'FOR', name: 'Forest', hexCode: '#2F4F3A', pantoneCode: '19-5420 TCX' },
});
export type Colour = keyof typeof COLOURS;

/** The checkpoints of the sample review checklist for tops (the `items` of the checklist, and what results name). */
export const TOPS_REVIEW_CHECKPOINTS = Object.freeze([
  'Measurements within tolerance',
  'Fabric hand feel and weight',
  'Neckline recovery after stretch',
  'Colour against approved lab dip',
  'Labels and trims as per BOM',
]);

/** The checkpoints of the sample review checklist for outerwear. */
export const OUTERWEAR_REVIEW_CHECKPOINTS = Object.freeze([
  'Measurements within tolerance',
  'Seam taping after 5 washes',
  'Water column (ISO 811) at least 10,000 mm',
  'Zip and trims function',
]);

export interface ReferenceIds {
  readonly countries: Record<'PT' | 'VN' | 'CN' | 'NL' | 'US' | 'GB', string>;
  readonly couriers: Record<'maersk' | 'dhlExpress' | 'dsvRoad', string>;
  readonly paymentTerms: Record<'net30' | 'net60' | 'deposit30Balance70', string>;
  readonly documentTypes: Record<'commercialInvoice' | 'freightInvoice' | 'packingList' | 'billOfLading' | 'techPack' | 'testReport' | 'paymentConfirmation', string>;
  readonly units: Record<'pcs' | 'cm' | 'm' | 'kg' | 'dozen', string>;
  readonly cartonSizes: Record<'small' | 'medium' | 'large', string>;
  readonly colors: Record<Colour, string>;
  /** The colour option's values (Navy, Oat, Forest), which colourways link to. */
  readonly colorOptionValues: Record<Colour, string>;
  /** The alpha size dimension and its values. */
  readonly sizeDimension: string;
  readonly sizes: Record<Size, string>;
  readonly collections: Record<'core' | 'coastal', string>;
  readonly launchWindows: Record<'drop1' | 'drop2', string>;
  readonly tags: Record<'organic' | 'essentials' | 'waterproof' | 'newIn', string>;
  readonly checklists: Record<'topsReview' | 'outerwearReview' | 'preShipment', string>;
}

export async function seedReferenceData({ put, putNamed, clock, newId, brandId }: SeedContext): Promise<ReferenceIds> {
  clock.jumpTo('2026-01-05T09:00:00.000Z');

  // Shared rows: every brand sees them.
  const countries = await putNamed('countries', null, {
    PT: { code: 'PT', name: 'Portugal', region: 'Europe' },
    VN: { code: 'VN', name: 'Viet Nam', region: 'South-East Asia' },
    CN: { code: 'CN', name: 'China', region: 'East Asia' },
    NL: { code: 'NL', name: 'Netherlands', region: 'Europe' },
    US: { code: 'US', name: 'United States', region: 'North America' },
    GB: { code: 'GB', name: 'United Kingdom', region: 'Europe' },
  });
  const couriers = await putNamed('couriers', null, {
    maersk: { code: 'MAEU', name: 'Maersk', mode: 'ocean', trackingUrlTemplate: 'https://www.maersk.com/tracking/{trackingNumber}' },
    dhlExpress: { code: 'DHL', name: 'DHL Express', mode: 'express', trackingUrlTemplate: 'https://www.dhl.com/nl-en/home/tracking.html?tracking-id={trackingNumber}' },
    dsvRoad: { code: 'DSVR', name: 'DSV Road', mode: 'road', trackingUrlTemplate: 'https://www.dsv.com/en/tools/track-and-trace?ref={trackingNumber}' },
  });
  const paymentTerms = await putNamed('payment-terms', null, {
    net30: { code: 'NET30', name: '30 days net', netDays: 30, description: 'Invoice paid in full 30 days after the invoice date.' },
    net60: { code: 'NET60', name: '60 days net', netDays: 60, description: 'Invoice paid in full 60 days after the invoice date.' },
    deposit30Balance70: {
      code: 'DEP30-BAL70',
      name: '30% deposit, 70% balance',
      netDays: 7,
      description: '30% deposit on order confirmation; 70% balance within 7 days of the goods arriving at destination.',
    },
  });
  const documentTypes = await putNamed('document-types', null, {
    commercialInvoice: { code: 'CINV', name: 'Commercial invoice', category: 'commercial' },
    freightInvoice: { code: 'FINV', name: 'Freight invoice', category: 'commercial' },
    packingList: { code: 'PL', name: 'Packing list', category: 'logistics' },
    billOfLading: { code: 'BL', name: 'Bill of lading', category: 'logistics' },
    techPack: { code: 'TECHPACK', name: 'Tech pack', category: 'technical' },
    testReport: { code: 'TEST', name: 'Test report', category: 'compliance' },
    paymentConfirmation: { code: 'PAYCONF', name: 'Payment confirmation', category: 'finance' },
  });
  const sharedUnits = await putNamed('units-of-measure', null, {
    pcs: { code: 'pcs', name: 'Pieces', type: 'count' },
    cm: { code: 'cm', name: 'Centimetres', type: 'length' },
    m: { code: 'm', name: 'Metres', type: 'length' },
    kg: { code: 'kg', name: 'Kilograms', type: 'weight' },
  });
  // One unit of Northwind's own: trims come by the dozen from Ningbo.
  const ownUnits = await putNamed('units-of-measure', brandId, { dozen: { code: 'dz', name: 'Dozen', type: 'count' } });

  const cartonSizes = await putNamed('carton-sizes', brandId, {
    small: { name: 'Small carton', lengthCm: '40.00', widthCm: '30.00', heightCm: '20.00' },
    medium: { name: 'Medium carton', lengthCm: '60.00', widthCm: '40.00', heightCm: '40.00' },
    large: { name: 'Large carton', lengthCm: '80.00', widthCm: '60.00', heightCm: '50.00' },
  });
  await put('packing-templates', brandId, [
    {
      name: 'Tees, 40 per medium carton, one size per carton',
      cartonSizeId: cartonSizes.medium,
      unitsPerCarton: 40,
      rules: { mixSizes: false, mixColourways: false, foldedInPolybag: true, maxGrossWeightKg: 12 },
    },
    {
      name: 'Jackets, 10 per large carton, one size per carton',
      cartonSizeId: cartonSizes.large,
      unitsPerCarton: 10,
      rules: { mixSizes: false, mixColourways: false, foldedInPolybag: true, maxGrossWeightKg: 15 },
    },
    {
      name: 'Size ratio pack, 1:2:3:2:1, small carton',
      cartonSizeId: cartonSizes.small,
      unitsPerCarton: 9,
      rules: { mixSizes: true, ratio: { XS: 1, S: 2, M: 3, L: 2, XL: 1 }, mixColourways: false },
    },
    {
      name: 'Samples, small carton, mixed',
      cartonSizeId: cartonSizes.small,
      unitsPerCarton: 10,
      rules: { mixSizes: true, mixColourways: true },
    },
  ]);

  const colors = await putNamed('colors', brandId, {
    navy: { ...COLOURS.navy, status: 'active' },
    oat: { ...COLOURS.oat, status: 'active' },
    forest: { ...COLOURS.forest, status: 'active' },
  });
  const options = await putNamed('options', brandId, { color: { name: 'Color' }, size: { name: 'Size' } });
  const colorOptionValues = await putNamed('option-values', brandId, {
    navy: { optionId: options.color, name: 'Navy', code: 'NAV', status: 'active', sequence: 1, hexCode: COLOURS.navy.hexCode, swatchVersion: 2 },
    oat: { optionId: options.color, name: 'Oat', code: 'OAT', status: 'active', sequence: 2, hexCode: COLOURS.oat.hexCode, swatchVersion: 1 },
    forest: { optionId: options.color, name: 'Forest', code: 'FOR', status: 'active', sequence: 3, hexCode: COLOURS.forest.hexCode, swatchVersion: 1 },
  });
  await put('option-values', brandId, SIZES.map((name, i) => ({ optionId: options.size, name, code: name, status: 'active', sequence: i + 1 })));

  // Sizes: the alpha dimension, a waist dimension for bottoms, and their groups.
  const dimensions = await putNamed('dimensions', brandId, {
    alpha: { code: 'ALPHA', name: 'Alpha size', type: 'size' },
    waist: { code: 'WAIST', name: 'Waist (inches)', type: 'size' },
  });
  const sizeNames: Record<Size, string> = { XS: 'Extra small', S: 'Small', M: 'Medium', L: 'Large', XL: 'Extra large' };
  const sizes = await putNamed('dimension-values', brandId, recordOf(SIZES, (size, i) => ({
    dimensionId: dimensions.alpha, code: size, name: sizeNames[size], sequence: i + 1,
  })));
  await put('dimension-values', brandId, [28, 30, 32, 34, 36].map((waist, i) => ({
    dimensionId: dimensions.waist, code: String(waist), name: `W${waist}`, sequence: i + 1,
  })));

  // The default curve's id is known before the curve: the group comes first, the curve points back at it.
  const curveId = newId();
  const groups = await putNamed('dimension-groups', brandId, {
    alpha: { name: 'Alpha sizes', defaultCurveId: curveId },
    waist: { name: 'Numeric waist', defaultCurveId: null },
  });
  await put('dimension-group-dimensions', brandId, [
    { dimensionGroupId: groups.alpha, dimensionId: dimensions.alpha, sequence: 1 },
    { dimensionGroupId: groups.waist, dimensionId: dimensions.waist, sequence: 1 },
  ]);
  await put('dimension-curves', brandId, [
    { id: curveId, dimensionGroupId: groups.alpha, code: 'ALPHA-12321', name: 'Core ratio 1:2:3:2:1 (XS-XL)', status: 'active' },
  ]);
  const [axis] = await put('dimension-curve-axes', brandId, [{ dimensionCurveId: curveId, dimensionId: dimensions.alpha, sequence: 1 }]);
  const axisValues = await putNamed('dimension-curve-axis-values', brandId, recordOf(SIZES, (size, i) => ({
    dimensionCurveAxisId: axis!.id, dimensionValueId: sizes[size], sequence: i + 1,
  })));
  await put('dimension-curve-cells', brandId, SIZES.map((size) => ({
    dimensionCurveId: curveId, primaryAxisValueId: axisValues[size], secondaryAxisValueId: null, quantity: CURVE_RATIO[size],
  })));

  const checklists = await putNamed('checklists', brandId, {
    topsReview: {
      code: 'CL-SR-TOPS',
      name: 'Sample review: knitted tops',
      type: 'sample_review',
      status: 'active',
      items: TOPS_REVIEW_CHECKPOINTS.map((label, i) => ({ sequence: i + 1, label, critical: i < 3 })),
    },
    outerwearReview: {
      code: 'CL-SR-OUTER',
      name: 'Sample review: outerwear',
      type: 'sample_review',
      status: 'active',
      items: OUTERWEAR_REVIEW_CHECKPOINTS.map((label, i) => ({ sequence: i + 1, label, critical: true })),
    },
    preShipment: {
      code: 'CL-PSI',
      name: 'Pre-shipment inspection (AQL 2.5)',
      type: 'inspection',
      status: 'active',
      items: [
        { sequence: 1, label: 'Carton count and marks', critical: true },
        { sequence: 2, label: 'Random sample of 80 units, AQL 2.5 major', critical: true },
        { sequence: 3, label: 'Barcode scan against packing list', critical: false },
      ],
    },
  });

  const collections = await putNamed('collections', brandId, {
    core: { code: 'SS26-CORE', name: 'SS26 Core', season: 'SS26', status: 'active' },
    coastal: { code: 'SS26-COASTAL', name: 'SS26 Coastal', season: 'SS26', status: 'active' },
  });
  const launchWindows = await putNamed('launch-windows', brandId, {
    drop1: { code: 'SS26-D1', name: 'Drop 1', startsOn: '2026-04-15', endsOn: '2026-05-31', status: 'open' },
    drop2: { code: 'SS26-D2', name: 'Drop 2', startsOn: '2026-06-01', endsOn: '2026-07-31', status: 'planned' },
  });
  const tags = await putNamed('tags', brandId, {
    organic: { name: 'Organic cotton', code: 'organic' },
    essentials: { name: 'Essentials', code: 'essentials' },
    waterproof: { name: 'Waterproof', code: 'waterproof' },
    newIn: { name: 'New in', code: 'new-in' },
  });
  await put('custom-field-definitions', brandId, [
    { entityType: 'product', key: 'fabric_mill', label: 'Fabric mill', dataType: 'text', options: null, required: false },
    { entityType: 'product', key: 'care_code', label: 'Care code', dataType: 'select', options: ['30C_GENTLE', '40C', 'HAND_WASH'], required: true },
    { entityType: 'order', key: 'season', label: 'Season', dataType: 'select', options: ['SS26', 'FW26'], required: true },
    { entityType: 'supplier', key: 'audit_score', label: 'Last social audit score', dataType: 'number', options: null, required: false },
    { entityType: 'supplier', key: 'last_audit_on', label: 'Last social audit', dataType: 'date', options: null, required: false },
  ]);

  return {
    countries,
    couriers,
    paymentTerms,
    documentTypes,
    units: { ...sharedUnits, ...ownUnits },
    cartonSizes,
    colors,
    colorOptionValues,
    sizeDimension: dimensions.alpha,
    sizes,
    collections,
    launchWindows,
    tags,
    checklists,
  };
}
