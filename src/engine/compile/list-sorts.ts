import type { Field, Resource } from '../definition/resource.ts';

/** One order a list may be read in (CONTRACT.md §8). */
export interface ListSort {
  /** As the `sort` parameter writes it: `createdAt`, `-totalAmount`. */
  readonly name: string;
  /** The field the order is by; records with equal values follow in `createdAt`, then `id` order, in the same direction. */
  readonly field: Field;
  readonly descending: boolean;
}

/** The order of a list without `sort` (CONTRACT.md §3): `createdAt`, then `id`, ascending. */
export const DEFAULT_SORT = 'createdAt';

/** The `sort` values of a family, each field ascending then descending, in the order the family lists its sorts. */
export function listSorts(resource: Resource): ReadonlyMap<string, ListSort> {
  const out = new Map<string, ListSort>();
  for (const field of resource.sorts) {
    out.set(field.name, Object.freeze({ name: field.name, field, descending: false }));
    out.set(`-${field.name}`, Object.freeze({ name: `-${field.name}`, field, descending: true }));
  }
  return out;
}
