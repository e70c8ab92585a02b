import type pg from 'pg';

/**
 * What the bench's writers do, through pgbench: touch one product at a time,
 * picked at random among a numbered set, as a system that edits its catalog
 * does. pgbench draws integers, so the products are numbered first in a
 * table of their own.
 */

/** Numbers the products `select` gives (a query of `id`s, with its values) from 1 in `table`, made anew; resolves with how many. */
export async function numberProducts({ client, table, select }: {
  client: pg.Client;
  table: string;
  select: { readonly sql: string; readonly values: readonly unknown[] };
}): Promise<number> {
  await client.query(`drop table if exists ${table}`);
  await client.query(`create unlogged table ${table} as select (row_number() over ())::int as n, id from (${select.sql}) p`, [...select.values]);
  await client.query(`alter table ${table} add primary key (n)`);
  await client.query(`analyze ${table}`);
  return ((await client.query(`select count(*)::int as "n" from ${table}`)).rows[0] as { n: number }).n;
}

/**
 * One writer's transaction: `updated_at = now()` on one product of `table`
 * picked at random (pgbench's `:ids` is their number). Updating `updated_at`
 * rewrites the row and every index entry, with or without the feed's
 * triggers.
 */
export function touchProductScript(table: string): string {
  return `\\set n random(1, :ids)
update products set updated_at = now() where id = (select id from ${table} where n = :n);
`;
}
