import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openEmbedded, openPostgres, type Database } from '../../src/db/connection/open-database.ts';
import { loadRegistry, type Registry } from '../../src/engine/definition/registry.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

/**
 * One database for the whole run: the embedded PGlite in memory, or, when
 * DATABASE_URL is set, a fresh database created beside it and dropped at the
 * end. Tests empty it with `resetDatabase` instead of recreating it.
 */
export interface TestDatabase {
  readonly db: Knex;
  readonly kind: Database['kind'];
  readonly registry: Registry;
  /** URL of the created Postgres database, for tests that start a server process. */
  readonly url: string | null;
}

const PREFIX = 'bcat_test_';

let current: Promise<TestDatabase> | null = null;

/** Drops the databases of earlier runs that were killed before they could drop their own. */
async function dropAbandoned(admin: Knex): Promise<void> {
  const found = (await admin.raw(`select datname from pg_database where datname like '${PREFIX}%'`)) as { rows: { datname: string }[] };
  for (const { datname } of found.rows) {
    const pid = Number(/^bcat_test_(\d+)_[0-9a-f]{8}$/.exec(datname)?.[1] ?? 0);
    if (pid > 0 && !isProcessRunning(pid)) await admin.raw(`drop database if exists "${datname}" with (force)`);
  }
}
let teardown: (() => Promise<void>) | null = null;

async function create(): Promise<TestDatabase> {
  const registry = await loadRegistry();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const database = await openEmbedded({ dir: null });
    await migrateToLatest(database.db);
    teardown = () => database.close();
    return { db: database.db, kind: database.kind, registry, url: null };
  }
  const name = `${PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres({ url: adminUrl, poolMax: 1 });
  await dropAbandoned(admin.db);
  await admin.db.raw(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openPostgres({ url: url.toString(), poolMax: 10 });
  await migrateToLatest(database.db);
  teardown = async () => {
    await database.close();
    await admin.db.raw(`drop database if exists "${name}" with (force)`);
    await admin.close();
  };
  return { db: database.db, kind: database.kind, registry, url: url.toString() };
}

export function testDatabase(): Promise<TestDatabase> {
  current ??= create();
  return current;
}

export async function closeTestDatabase(): Promise<void> {
  if (teardown) await teardown();
  current = null;
  teardown = null;
}

/** Empties every table the migrations made, keeping the schema. */
export async function resetDatabase(db: Knex): Promise<void> {
  const result = (await db.raw(
    `select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%'`,
  )) as { rows: { tablename: string }[] };
  const tables = result.rows.map((row) => `"${row.tablename}"`).join(', ');
  if (tables) await db.raw(`truncate ${tables} cascade`);
}
