import type { Knex } from 'knex';

/**
 * btree_gin lets a GIN index lead with the brand: `gin (brand_id, name
 * gin_trgm_ops)`, so a search reads only the brand's matches, not every
 * brand's (docs/PERFORMANCE.md, "Search"). It ships with Postgres's contrib
 * modules and is trusted since Postgres 13.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists btree_gin');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop extension if exists btree_gin');
}
