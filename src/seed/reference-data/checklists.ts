import type { SeedContext } from '../seed-context.ts';

/** The checklists of sample reviews (tops, outerwear) and of the pre-shipment inspection. */

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

export async function seedChecklists({ putNamed, brandId }: SeedContext): Promise<Record<'topsReview' | 'outerwearReview' | 'preShipment', string>> {
  return putNamed('checklists', brandId, {
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
}
