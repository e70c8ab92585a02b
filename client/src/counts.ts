import type { CollectionPath, Families } from './families.generated.ts';

/** What `counts()` takes (`GET /brands/{brand}/<path>/counts?by=<field>`). */
export interface CountsOptions<P extends CollectionPath, B extends Families[P]['countable']> {
  /** The field whose values are counted. */
  readonly by: B;
  /** The family's filters, as a list takes them. */
  readonly filters?: Families[P]['filters'];
  readonly signal?: AbortSignal;
}

/** How many matching records each value of a field has (`GET .../<path>/counts?by=<field>`). */
export interface Counts<V> {
  readonly by: string;
  /** At most 1,000 values, the largest counts first; equal counts by value, null last. */
  readonly counts: readonly { readonly value: V; readonly count: number }[];
  /** The matching records whose values are past the first 1,000. */
  readonly otherItems: number;
  /** Every matching record, exact as of the request. */
  readonly totalItems: number;
}

/** The value type of a countable field of a family. */
export type CountedValue<P extends CollectionPath, B extends PropertyKey> = B extends keyof Families[P]['record'] ? Families[P]['record'][B] : never;
