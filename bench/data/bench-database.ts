import pg from 'pg';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { scaleName, type Scale } from './scale.ts';

/** `bcat_bench_<scale>`: one database per scale, so a kept one is found again by its scale. */
export function benchDatabaseName(scale: Scale): string {
  return `bcat_bench_${scaleName(scale).replace(/-/g, '_')}`;
}

/** The URL of another database on the same server. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `use` on a session of the admin URL's database, closed after. */
export async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/** Drops the database if it exists (closing its sessions) and creates it empty. */
export async function recreateDatabase({ adminUrl, name }: { adminUrl: string; name: string }): Promise<void> {
  await withAdmin(adminUrl, async (admin) => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  });
}

export async function dropDatabase({ adminUrl, name }: { adminUrl: string; name: string }): Promise<void> {
  await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
}

/** Runs the project's migrations on the database at `url`. */
export async function migrate(url: string): Promise<void> {
  const database = openPostgres({ url, poolMax: 1, boundStatements: false });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}

/** The server version of the Postgres at `url`, for a report's machine line. */
export async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return `PostgreSQL ${(await client.query('show server_version')).rows[0].server_version as string}`;
  } finally {
    await client.end();
  }
}
