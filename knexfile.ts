import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

/**
 * Knex settings for Postgres at DATABASE_URL, for the knex CLI. The service
 * opens its databases in `src/db/open-database.ts` (pool, timeouts, the
 * embedded PGlite) with the same migrations.
 */
export const migrations: Knex.MigratorConfig = {
  directory: fileURLToPath(new URL('./migrations', import.meta.url)),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

const config: Knex.Config = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations,
};

export default config;
