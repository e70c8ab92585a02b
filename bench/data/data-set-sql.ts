/**
 * The benchmark's data set as server-side SQL: one `insert ... select ...
 * from generate_series(...)` per table, rows generated and sorted inside
 * Postgres, none sent from Node.
 *
 * Every id is a function of a number (`bench_uid(key, table)`), and a child's
 * key is a function of its parent's: a SKU's statement computes its product
 * and colourway ids itself instead of reading those tables, so the statements
 * do not wait on each other and run side by side. Rows are inserted in id
 * order (ids look random, like `gen_random_uuid()`): the primary key grows at
 * its end, and a brand's rows are scattered over the table as in a table
 * filled over years. How many rows each table gets: `data-shape.ts`.
 */
import { catalogInserts } from './catalog-inserts.ts';
import type { LoadedTable } from './data-shape.ts';
import { orderInserts } from './order-inserts.ts';
import { variantInserts } from './variant-inserts.ts';

/** Statements that prepare the helpers every insert uses: the id function and the brand plan table. */
export const SETUP_STATEMENTS = Object.freeze([
  // 128 bits from two 64-bit hashes of the key's text, shaped as a UUID; inlined by the planner.
  // (hashint8extended folds a key to 32 bits first: keys past 2^32 would collide.)
  `create or replace function bench_uid(key bigint, tab int) returns uuid language sql immutable parallel safe as
    $$ select (lpad(to_hex(hashtextextended(key::text, tab)), 16, '0') || lpad(to_hex(hashtextextended(key::text, tab + 1000)), 16, '0'))::uuid $$`,
  `create table bench_brands (ordinal int primary key, slug text not null, name text not null, product_count int not null)`,
]);

/** Fills `bench_brands` from the plan: `$1` ordinals, `$2` slugs, `$3` names, `$4` product counts. */
export const INSERT_BRAND_PLAN = `insert into bench_brands (ordinal, slug, name, product_count)
  select * from unnest($1::int[], $2::text[], $3::text[], $4::int[])`;

/** One statement per table, in the order of `LOADED_TABLES`. */
export function insertStatements(): Readonly<Record<LoadedTable, string>> {
  return { ...catalogInserts(), ...variantInserts(), ...orderInserts() };
}
