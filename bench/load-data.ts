import pg from 'pg';
import { migrateToLatest } from '../src/db/schema/migrate-to-latest.ts';
import { openPostgres } from '../src/db/connection/open-database.ts';
import { INSERT_BRAND_PLAN, LOADED_TABLES, SETUP_STATEMENTS, expectedRows, insertStatements } from './data-set-sql.ts';
import { cpuSeconds, processName } from './process-stats.ts';
import { runInLanes, type LaneTask } from './run-in-lanes.ts';
import { planBrands, scaleName, type BrandPlan, type Scale } from './scale.ts';

/**
 * Creating the benchmark's database and loading its data set in bulk.
 *
 * Loading is bound by CPU, so it runs on two sessions side by side (the
 * machine the targets were set on has two cores). The secondary indexes of
 * the loaded tables are dropped first and built again after the rows are in
 * (building an index is several times cheaper than growing it row by row),
 * foreign keys are not checked while loading (the ids are derived, not looked
 * up; the bench's test checks them), and every table is vacuumed and analyzed
 * at the end, so the visibility map serves index-only counts as it would on a
 * settled database and autovacuum does not wake up in the middle of a run.
 */

export type Log = (message: string) => void;

export interface LoadResult {
  readonly brands: readonly BrandPlan[];
  /** Rows inserted per table. */
  readonly rows: Readonly<Record<string, number>>;
  readonly seconds: number;
  /**
   * CPU seconds the loading sessions' Postgres processes used: the load's
   * cost apart from other work on the machine (wall time on an idle machine
   * is about this over the number of lanes). Null when Postgres runs on
   * another machine.
   */
  readonly cpuSeconds: number | null;
}

/** Marks a database whose load finished, with its scale: `--keep-data` reuses only such a database. */
const LOADED_MARKER = 'bench_loaded';
/** Sessions loading side by side. */
const LANES = 2;

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

async function withAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
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

async function openLane(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-load' });
  await client.connect();
  await client.query(`set maintenance_work_mem = '1GB'`);
  // Room to sort each table's rows by id in memory.
  await client.query(`set work_mem = '1GB'`);
  // The lanes already keep the cores busy: parallel workers would only add merging.
  await client.query('set max_parallel_maintenance_workers = 0');
  await client.query('set synchronous_commit = off');
  try {
    // Skips the foreign key triggers while loading; needs a superuser, as creating the database mostly does too.
    await client.query('set session_replication_role = replica');
  } catch (error) {
    await client.end();
    throw new Error(`loading needs a superuser connection (to skip foreign key checks while loading): ${(error as Error).message}`);
  }
  return client;
}

interface IndexDefinition {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

/** The loaded tables' indexes that no constraint owns (primary keys stay: rows arrive in their order). */
async function secondaryIndexes(client: pg.Client): Promise<IndexDefinition[]> {
  const result = await client.query(
    `select c.relname as "table", ic.relname as "name", pg_get_indexdef(i.indexrelid) as "definition"
       from pg_index i
       join pg_class c on c.oid = i.indrelid
       join pg_class ic on ic.oid = i.indexrelid
      where c.relname = any($1) and c.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by ic.relname`,
    [[...LOADED_TABLES]],
  );
  return result.rows as IndexDefinition[];
}

/**
 * Migrates the database at `url` and loads the data set of `scale` into it.
 * The database must be freshly created: the loaded tables are expected empty.
 */
export async function loadData({ url, scale, log }: { url: string; scale: Scale; log: Log }): Promise<LoadResult> {
  const started = performance.now();
  const brands = planBrands(scale);
  await migrate(url);
  log(`migrated in ${seconds(started)} s`);

  const lanes: pg.Client[] = [];
  try {
    for (let i = 0; i < LANES; i++) lanes.push(await openLane(url));
    const [first] = lanes as [pg.Client];
    for (const statement of SETUP_STATEMENTS) await first.query(statement);
    await first.query(INSERT_BRAND_PLAN, [
      brands.map((b) => b.ordinal), brands.map((b) => b.slug), brands.map((b) => b.name), brands.map((b) => b.productCount),
    ]);
    const indexes = await secondaryIndexes(first);
    for (const index of indexes) await first.query(`drop index "${index.name}"`);

    const rows: Record<string, number> = {};
    const statements = insertStatements();
    // Progress for the steps that take a while; the many small ones would drown it.
    const timed = (name: string, run: (lane: pg.Client) => Promise<void>): ((lane: pg.Client) => Promise<void>) => async (lane) => {
      const at = performance.now();
      await run(lane);
      if (performance.now() - at >= 1000) log(`  ${name}: ${seconds(at)} s`);
    };
    const expected = expectedRows(brands);
    // Biggest first, so the two lanes finish close together.
    const byRows = [...LOADED_TABLES].sort((a, b) => expected[b] - expected[a]);
    const tasks: LaneTask<pg.Client>[] = [
      ...byRows.map((table) => ({
        name: `insert ${table}`,
        run: timed(`insert ${table}`, async (lane) => {
          rows[table] = (await lane.query(statements[table])).rowCount ?? 0;
        }),
      })),
      // Trigram indexes first: they take longest and use one core each.
      ...[...indexes].sort((a, b) => indexCost(b, expected) - indexCost(a, expected)).map((index) => ({
        name: `index ${index.name}`,
        after: [`insert ${index.table}`],
        run: timed(`index ${index.name}`, async (lane) => {
          await lane.query(index.definition);
        }),
      })),
      ...byRows.map((table) => ({
        name: `vacuum ${table}`,
        after: [`insert ${table}`, ...indexes.filter((index) => index.table === table).map((index) => `index ${index.name}`)],
        run: timed(`vacuum analyze ${table}`, async (lane) => {
          await lane.query(`vacuum (analyze) "${table}"`);
        }),
      })),
    ];
    await runInLanes({ lanes, tasks });
    const loadSeconds = (performance.now() - started) / 1000;
    const rowsByTable = Object.fromEntries(LOADED_TABLES.map((table) => [table, rows[table] ?? 0]));
    const backends = await Promise.all(lanes.map(async (lane) => backendCpuSeconds(lane)));
    const cpu = backends.every((used) => used !== null) ? backends.reduce((sum: number, used) => sum + used!, 0) : null;
    await first.query(`create table ${LOADED_MARKER} (scale text not null, rows jsonb not null, load_seconds numeric not null, cpu_seconds numeric, loaded_at timestamptz not null default now())`);
    await first.query(`insert into ${LOADED_MARKER} (scale, rows, load_seconds, cpu_seconds) values ($1, $2, $3, $4)`, [scaleName(scale), JSON.stringify(rowsByTable), loadSeconds, cpu]);
    return { brands, rows: rowsByTable, seconds: loadSeconds, cpuSeconds: cpu };
  } finally {
    await Promise.all(lanes.map((lane) => lane.end()));
  }
}

/** The rows and seconds of the load that filled a kept database. */
export async function loadedSummary(url: string): Promise<Omit<LoadResult, 'brands'>> {
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

/** CPU seconds of a session's Postgres process, when that process is on this machine (its pid here is a postgres). */
async function backendCpuSeconds(lane: pg.Client): Promise<number | null> {
  const pid = Number((await lane.query('select pg_backend_pid() as pid')).rows[0].pid);
  return (await processName(pid)) === 'postgres' ? cpuSeconds(pid) : null;
}

/** Rough cost of building an index: its table's rows, doubled for a trigram GIN (one core, several entries per row). */
function indexCost(index: IndexDefinition, rows: Readonly<Record<string, number>>): number {
  return (rows[index.table] ?? 0) * (index.definition.includes('gin_trgm_ops') ? 2 : 1);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
