import pg from 'pg';
import { LOADED_TABLES, expectedRows } from './data-shape.ts';
import { INSERT_BRAND_PLAN, SETUP_STATEMENTS, insertStatements } from './data-set-sql.ts';
import { migrate } from './bench-database.ts';
import { markLoaded } from './loaded-marker.ts';
import { loadTasks, type IndexDefinition } from './load-tasks.ts';
import { cpuSeconds, processName } from '../measure/process-stats.ts';
import { runInLanes } from './run-in-lanes.ts';
import { planBrands, type BrandPlan, type Scale } from './scale.ts';

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

/** Sessions loading side by side. */
const LANES = 2;

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
    // The changes feed's triggers fire even so (ENABLE ALWAYS): every loaded row is stamped, as a subscription's would be.
    await client.query('set session_replication_role = replica');
  } catch (error) {
    await client.end();
    throw new Error(`loading needs a superuser connection (to skip foreign key checks while loading): ${(error as Error).message}`);
  }
  return client;
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
    const tasks = loadTasks<pg.Client>({ statements: insertStatements(), indexes, expected: expectedRows(brands), rows, log });
    await runInLanes({ lanes, tasks });
    const loadSeconds = (performance.now() - started) / 1000;
    const rowsByTable = Object.fromEntries(LOADED_TABLES.map((table) => [table, rows[table] ?? 0]));
    const backends = await Promise.all(lanes.map(async (lane) => backendCpuSeconds(lane)));
    const cpu = backends.every((used) => used !== null) ? backends.reduce((sum: number, used) => sum + used!, 0) : null;
    await markLoaded({ client: first, scale, summary: { rows: rowsByTable, seconds: loadSeconds, cpuSeconds: cpu } });
    return { brands, rows: rowsByTable, seconds: loadSeconds, cpuSeconds: cpu };
  } finally {
    await Promise.all(lanes.map((lane) => lane.end()));
  }
}

/** CPU seconds of a session's Postgres process, when that process is on this machine (its pid here is a postgres). */
async function backendCpuSeconds(lane: pg.Client): Promise<number | null> {
  const pid = Number((await lane.query('select pg_backend_pid() as pid')).rows[0].pid);
  return (await processName(pid)) === 'postgres' ? cpuSeconds(pid) : null;
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}
