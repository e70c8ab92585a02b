import { DATA_SHAPE, TABLE_NUMBER, type LoadedTable } from './data-shape.ts';

/**
 * SQL expressions the data set's inserts are built from. A product's key is
 * (brand ordinal, its number k in the brand); a child's is its parent's
 * times 8 plus its own number; every id is `bench_uid(key, table)`.
 */

/** Rows start here and spread over three years. */
export const START = `timestamptz '2023-01-01 00:00:00+00'`;
const SPAN = `interval '1095 days'`;

const textArray = (values: readonly string[]): string => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;
/** `values[n mod length]` for a non-negative integer expression `n`. */
export const pick = (values: readonly string[], n: string): string => `(${textArray(values)})[1 + (${n}) % ${values.length}]`;
export const uid = (key: string, table: LoadedTable): string => `bench_uid(${key}, ${TABLE_NUMBER[table]})`;
/** A well-spread non-negative number from a key, a different one for each `salt`. */
export const spread = (key: string, salt: number): string => `(hashint8extended(${key}, ${salt}) & 9223372036854775807)`;

export const productKey = (ordinal: string, k: string): string => `((${ordinal})::bigint << 32 | (${k}))`;
export const childKey = (parent: string, n: string): string => `(${parent} * 8 + (${n}))`;
export const productCode = (ordinal: string, k: string): string => `'B' || lpad((${ordinal})::text, 3, '0') || '-' || lpad((${k})::text, 6, '0')`;
/** Evenly over the span, a brand's k-th of `count`; the brand's ordinal in milliseconds keeps brands apart. */
export const spreadOverSpan = (ordinal: string, k: string, count: string): string =>
  `(${START} + ((${k}) - 1) * (${SPAN} / (${count})) + (${ordinal}) * interval '1 millisecond')`;
export const ordersOf = (count: string): string => `greatest(1, ceil((${count})::numeric / ${DATA_SHAPE.productsPerOrder})::int)`;

export const brandId = (ordinal: string): string => uid(`(${ordinal})::bigint`, 'brands');
/** The id of a brand's n-th category, colour or supplier. */
export const smallId = (ordinal: string, n: string, table: 'categories' | 'colors' | 'suppliers'): string => uid(`(${ordinal})::bigint * 64 + (${n})`, table);

/** `p.key` and `p.created_at` of product `k` of brand `b`. */
const product = `cross join lateral (select ${productKey('b.ordinal', 'k')} as key, ${spreadOverSpan('b.ordinal', 'k', 'b.product_count')} as created_at) p`;
/** Every product of every brand, as `b`, `k` and `p`. */
export const EVERY_PRODUCT = `from bench_brands b cross join lateral generate_series(1, b.product_count) k ${product}`;
/** The odd-numbered products, 1, 3, 5, ...: the approved ones. */
export const APPROVED_PRODUCTS = `from bench_brands b cross join lateral generate_series(1, b.product_count, 2) k ${product}`;
