import type { Knex } from 'knex';
import { migrations } from '../../../knexfile.ts';

/** Brings the database to the latest schema; returns the names of the migrations it ran. */
export async function migrateToLatest(db: Knex): Promise<string[]> {
  const [, ran] = (await db.migrate.latest(migrations)) as [number, string[]];
  return ran;
}

/** Migrations not yet run: the server refuses to serve an outdated schema. */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list(migrations)) as [unknown, { file: string }[]];
  return pending.map((migration) => migration.file);
}
