import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { openEmbedded, openPostgres, type Database } from '../../src/db/connection/open-database.ts';
import { loadRegistry, type Registry } from '../../src/engine/definition/registry.ts';
import { TOMBSTONE_TABLE, TRUNCATION_TABLE } from '../../src/engine/compile/plan-sync.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

/**
 * One database per test process, kept for every test file that process runs:
 * the embedded PGlite in memory, or, when DATABASE_URL is set, a fresh
 * database created beside it. Tests empty it with `resetDatabase` instead of
 * recreating it. In a serial run that is the mocha process itself; in a
 * parallel run (`mocha --parallel`) each worker process has its own, so tests
 * that reset tables never see another worker's writes.
 *
 * On Postgres a database is named `bcat_test_<pid>_<run>`: the pid of the
 * process that uses it and the run's id (`BCAT_TEST_RUN`, set once by the
 * global setup in test/support/run-fixtures.ts and inherited by the workers).
 * The global teardown drops every database of its run; a database whose
 * process is gone (a killed run) is dropped by the next run.
 */
export interface TestDatabase {
  readonly db: Knex;
  readonly kind: Database['kind'];
  readonly registry: Registry;
  /** URL of the created Postgres database, for tests that start a server process. */
  readonly url: string | null;
  /**
   * What a test server reads through: `db` itself, or, when TEST_POOLER_URL
   * names a transaction pooler (`.ci/run` starts PgBouncer), the same database
   * through it, opened as DATABASE_POOLER=transaction opens it. Set-up and
   * fixtures always use `db`, a direct connection.
   */
  readonly served: Knex;
}

/** The pooler (a postgres:// URL, any database) the test servers read through, when set. */
export const POOLER_VARIABLE = 'TEST_POOLER_URL';

const PREFIX = 'bcat_test_';
/** The environment variable that carries the run's id to the worker processes. */
export const RUN_ID_VARIABLE = 'BCAT_TEST_RUN';
const RUN_ID = /^[0-9a-f]{8}$/;

/**
 * The process's database, kept on `globalThis`: tsx loads this file twice in
 * one process when test files are loaded both ways (mocha requires a test
 * file, and imports one with top-level await, such as isolation.test.ts, as
 * ESM), and both copies must share one database, not make one each.
 */
interface ProcessDatabase {
  current: Promise<TestDatabase> | null;
  teardown: (() => Promise<void>) | null;
  runId: string | null;
}
const shared = ((globalThis as { [key: symbol]: ProcessDatabase })[Symbol.for('bcat.test-database')] ??= { current: null, teardown: null, runId: null });

/** This run's id: the one the global setup chose, or one of this process's own. */
export function runId(): string {
  const given = process.env[RUN_ID_VARIABLE];
  if (given && RUN_ID.test(given)) return given;
  shared.runId ??= randomBytes(4).toString('hex');
  return shared.runId;
}

/** Drops the databases of earlier runs that were killed before they could drop their own. */
export async function dropAbandoned(admin: Knex): Promise<void> {
  const found = (await admin.raw(`select datname from pg_database where datname like '${PREFIX}%'`)) as { rows: { datname: string }[] };
  for (const { datname } of found.rows) {
    const pid = Number(/^bcat_test_(\d+)_[0-9a-f]{8}$/.exec(datname)?.[1] ?? 0);
    if (pid > 0 && !isProcessRunning(pid)) await admin.raw(`drop database if exists "${datname}" with (force)`);
  }
}

/** Drops every database of a run, whoever made it (the teardown of a parallel run, after its workers are gone). */
export async function dropRunDatabases(admin: Knex, run: string): Promise<void> {
  if (!RUN_ID.test(run)) throw new Error(`not a run id: ${run}`);
  const found = (await admin.raw(`select datname from pg_database where datname like '${PREFIX}%\\_${run}'`)) as { rows: { datname: string }[] };
  for (const { datname } of found.rows) {
    if (new RegExp(`^bcat_test_\\d+_${run}$`).test(datname)) await admin.raw(`drop database if exists "${datname}" with (force)`);
  }
}

async function create(): Promise<TestDatabase> {
  const registry = await loadRegistry();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const database = await openEmbedded({ dir: null });
    await migrateToLatest(database.db);
    shared.teardown = () => database.close();
    return { db: database.db, kind: database.kind, registry, url: null, served: database.db };
  }
  const name = `${PREFIX}${process.pid}_${runId()}`;
  const admin = openPostgres({ url: adminUrl, poolMax: 1, boundStatements: false });
  // The global setup drops them once for a whole run; a process without one (no mocha fixtures) does it here.
  if (!process.env[RUN_ID_VARIABLE]) await dropAbandoned(admin.db);
  await admin.db.raw(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Not bound by a request's statement limits (4 s): fixtures load thousands of rows or empty every table, which on a
  // busy CI machine can take longer. The bounds themselves are tested on connections of their own (open-database.test.ts).
  const database = openPostgres({ url: url.toString(), poolMax: 10, boundStatements: false });
  await migrateToLatest(database.db);
  const pooled = throughPooler(name);
  shared.teardown = async () => {
    await pooled?.close();
    await database.close();
    await admin.db.raw(`drop database if exists "${name}" with (force)`);
    await admin.close();
  };
  return { db: database.db, kind: database.kind, registry, url: url.toString(), served: pooled?.db ?? database.db };
}

/** The run's database `name` through the pooler of TEST_POOLER_URL, opened as the server opens it there; null without one. */
function throughPooler(name: string): Database | null {
  const poolerUrl = process.env[POOLER_VARIABLE];
  if (!poolerUrl) return null;
  const url = new URL(poolerUrl);
  url.pathname = `/${name}`;
  return openPostgres({ url: url.toString(), poolMax: 10, pooler: 'transaction', statementCache: 0, boundStatements: false });
}

export function testDatabase(): Promise<TestDatabase> {
  shared.current ??= create();
  return shared.current;
}

/** Closes this process's database (and drops it on Postgres); the next `testDatabase()` makes a new one. */
export async function closeTestDatabase(): Promise<void> {
  const pending = shared.current;
  shared.current = null;
  await pending?.catch(() => undefined);
  const { teardown } = shared;
  shared.teardown = null;
  if (teardown) await teardown();
}

/**
 * Empties every table the migrations made, keeping the schema. Only the
 * tables that hold rows are touched, with DELETE in one transaction that skips
 * foreign-key checks (`session_replication_role = replica`: every table that
 * holds rows is emptied, so no reference is left dangling). The changes
 * feed's triggers fire even so (`ENABLE ALWAYS`, plan-sync.ts): the
 * tombstones they write are deleted last, in the same transaction. TRUNCATE of all ~95 tables cost
 * 0.5-3.5 s per call on Postgres (a new file for every table and index) and
 * 0.3-0.5 s on PGlite; this costs 15-60 ms. Without the privilege to skip
 * triggers (a non-superuser DATABASE_URL) it truncates them all as before.
 */
export async function resetDatabase(db: Knex): Promise<void> {
  const result = (await db.raw(
    `select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%'`,
  )) as { rows: { tablename: string }[] };
  const tables = result.rows.map((row) => `"${row.tablename.replaceAll('"', '""')}"`);
  if (tables.length === 0) return;
  const probe = tables.map((table, i) => `select ${i} as i where exists (select 1 from ${table})`).join(' union all ');
  const filled = ((await db.raw(probe)) as { rows: { i: number }[] }).rows.map((row) => tables[Number(row.i)]!);
  if (filled.length === 0) return;
  try {
    await db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      // The feed's own tables last: the deletes before them write tombstones.
      const feed = [`"${TOMBSTONE_TABLE}"`, `"${TRUNCATION_TABLE}"`].filter((table) => tables.includes(table));
      for (const table of [...filled.filter((table) => !feed.includes(table)), ...feed]) await trx.raw(`delete from ${table}`);
    });
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error; // insufficient_privilege
    await db.raw(`truncate ${tables.join(', ')} cascade`);
  }
}
