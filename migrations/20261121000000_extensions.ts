import type { Knex } from 'knex';

/** pg_trgm serves the case-insensitive substring filters (`contains-ci`) with GIN indexes. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop extension if exists pg_trgm');
}
