import { recordOf } from '../record-of.ts';
import type { SeedContext } from '../seed-context.ts';

/**
 * Sizes: the alpha dimension (XS to XL), a waist dimension for bottoms, their
 * groups, and the season's size curve, the default curve of the alpha group.
 */

export const SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
export type Size = (typeof SIZES)[number];

/** The season's size curve: units per size in a buy of one ratio pack. */
export const CURVE_RATIO: Readonly<Record<Size, number>> = Object.freeze({ XS: 1, S: 2, M: 3, L: 2, XL: 1 });

const SIZE_NAMES: Readonly<Record<Size, string>> = { XS: 'Extra small', S: 'Small', M: 'Medium', L: 'Large', XL: 'Extra large' };

export interface SizeIds {
  /** The alpha size dimension and its values. */
  readonly sizeDimension: string;
  readonly sizes: Record<Size, string>;
}

export async function seedSizes({ put, putNamed, newId, brandId }: SeedContext): Promise<SizeIds> {
  const dimensions = await putNamed('dimensions', brandId, {
    alpha: { code: 'ALPHA', name: 'Alpha size', type: 'size' },
    waist: { code: 'WAIST', name: 'Waist (inches)', type: 'size' },
  });
  const sizes = await putNamed('dimension-values', brandId, recordOf(SIZES, (size, i) => ({
    dimensionId: dimensions.alpha, code: size, name: SIZE_NAMES[size], sequence: i + 1,
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
  return { sizeDimension: dimensions.alpha, sizes };
}
