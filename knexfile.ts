import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

/**
 * Knex settings for real Postgres at DATABASE_URL. The embedded database
 * (no DATABASE_URL) is opened by `src/db/open-database.ts` with the same
 * migrations.
 */
export const migrations: Knex.MigratorConfig = {
  directory: fileURLToPath(new URL('./migrations', import.meta.url)),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};

const config: Knex.Config = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  pool: { min: 0, max: Number(process.env.DATABASE_POOL_MAX ?? 10) },
  migrations,
};

export default config;
