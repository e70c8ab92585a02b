import type { Knex } from 'knex';
import { migrations } from '../../../knexfile.ts';

/** Brings the database to the latest schema; returns the names of the migrations it ran. */
export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, ran] = (await db.migrate.latest(migrations)) as [number, string[]];
  return ran;
}

/**
 * Names of the migrations not yet run (as they are recorded: `<stamp>_<name>.ts`):
 * the server refuses to serve an outdated schema. knex lists them as its
 * migration source gives them (file names here), so the source names them.
 */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list(migrations)) as [unknown, string[]];
  return pending.map((migration) => migrations.migrationSource!.getMigrationName(migration));
}
