import pg from 'pg';
import { databaseUrl, withAdmin } from './bench-database.ts';
import { scaleName, type Scale } from './scale.ts';

/** Marks a database whose load finished, with its scale: `--keep-data` reuses only such a database. */
const LOADED_MARKER = 'bench_loaded';

/** What a finished load wrote down: rows per table, and its wall and Postgres CPU seconds. */
export interface LoadSummary {
  readonly rows: Readonly<Record<string, number>>;
  readonly seconds: number;
  readonly cpuSeconds: number | null;
}

/** True when the database exists and holds a finished load of this scale. */
export async function isLoaded({ adminUrl, name, scale }: { adminUrl: string; name: string; scale: Scale }): Promise<boolean> {
  const exists = await withAdmin(adminUrl, async (admin) => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (!exists) return false;
  const client = new pg.Client({ connectionString: databaseUrl(adminUrl, name) });
  await client.connect();
  try {
    const found = await client.query(`select to_regclass($1) is not null as "present"`, [LOADED_MARKER]);
    if (!(found.rows[0] as { present: boolean }).present) return false;
    const marker = await client.query(`select scale from ${LOADED_MARKER}`);
    return marker.rows.length === 1 && (marker.rows[0] as { scale: string }).scale === scaleName(scale);
  } finally {
    await client.end();
  }
}

/** Marks the database of `client` loaded at `scale`, with what the load took. */
export async function markLoaded({ client, scale, summary }: { client: pg.Client; scale: Scale; summary: LoadSummary }): Promise<void> {
  await client.query(`create table ${LOADED_MARKER} (scale text not null, rows jsonb not null, load_seconds numeric not null, cpu_seconds numeric, loaded_at timestamptz not null default now())`);
  await client.query(`insert into ${LOADED_MARKER} (scale, rows, load_seconds, cpu_seconds) values ($1, $2, $3, $4)`, [scaleName(scale), JSON.stringify(summary.rows), summary.seconds, summary.cpuSeconds]);
}

/** The rows and seconds of the load that filled a kept database. */
export async function loadedSummary(url: string): Promise<LoadSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(`select rows, load_seconds, cpu_seconds from ${LOADED_MARKER}`);
    const row = result.rows[0] as { rows: Record<string, number>; load_seconds: string; cpu_seconds: string | null };
    return { rows: row.rows, seconds: Number(row.load_seconds), cpuSeconds: row.cpu_seconds === null ? null : Number(row.cpu_seconds) };
  } finally {
    await client.end();
  }
}
