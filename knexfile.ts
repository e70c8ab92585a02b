import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

/** The migrations folder: TypeScript in the repository, JavaScript in the build (`npm run build`). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

const MIGRATION_FILE = /^(\d{14}_[a-z0-9_]+)\.(ts|js)$/;

/**
 * Migrations are recorded under their `.ts` names, whichever form runs them:
 * a database migrated from the repository is up to date for the built
 * server, and the other way round. (knex's own folder source records the
 * file name with its extension, so the build would look like another
 * schema.)
 */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return (await readdir(MIGRATIONS_DIR)).filter((file) => MIGRATION_FILE.test(file)).sort();
  },
  getMigrationName(file) {
    return `${MIGRATION_FILE.exec(file)![1]}.ts`;
  },
  getMigration(file) {
    return import(pathToFileURL(join(MIGRATIONS_DIR, file)).href) as Promise<Knex.Migration>;
  },
};

/**
 * Knex settings for Postgres at DATABASE_URL, for the knex CLI. The service
 * opens its databases in `src/db/connection/open-database.ts` (pool, timeouts, the
 * embedded PGlite) with the same migrations.
 */
export const migrations: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

const config: Knex.Config = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations,
};

export default config;
