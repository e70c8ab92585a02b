import type { Field, Filter } from './resource.ts';

/** The bounds of a range, as a parameter's bracket writes them: `createdAt[gte]` (CONTRACT.md §8). */
export const RANGE_BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;
export type RangeBound = (typeof RANGE_BOUNDS)[number];

/** The parameter of one bound of a range field: `totalAmount[lt]`. */
export const rangeParameter = (field: string, bound: RangeBound): string => `${field}[${bound}]`;

/**
 * The filters of the fields that take ranges: four per field, one per bound,
 * each a match kind of its own (`match-kinds.ts`), so a range is validated,
 * compiled, indexed and documented as every filter is.
 */
export function rangeFilters(ranges: readonly Field[]): Filter[] {
  return ranges.flatMap((field) => {
    const target = Object.freeze({ label: field.name, join: null, column: field.sourceColumn, type: field.type, values: null });
    return RANGE_BOUNDS.map((bound) => Object.freeze({ name: rangeParameter(field.name, bound), match: bound, targets: Object.freeze([target]), description: null }));
  });
}
