import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { closeTestDatabase, dropAbandoned, dropRunDatabases, RUN_ID_VARIABLE } from './test-database.ts';
import { removeSeededDataDir } from './seeded-data-dir.ts';

/**
 * Mocha global fixtures: they run once per `mocha` invocation, in the main
 * process, serial or parallel (workers never run them).
 *
 * Setup gives the run an id in the environment, which the worker processes
 * inherit (they are forked after it), and drops the databases that killed
 * runs left behind. Teardown drops every database of the run: in a parallel
 * run each worker made one and keeps it for all its files (a worker exits
 * without an after hook of its own), so the run, not the worker, drops them;
 * and it removes the run's seeded data folder (seeded-data-dir.ts).
 */
export async function mochaGlobalSetup(): Promise<void> {
  process.env[RUN_ID_VARIABLE] = randomBytes(4).toString('hex');
  await withAdmin(dropAbandoned);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await closeTestDatabase();
  const run = process.env[RUN_ID_VARIABLE];
  if (!run) return;
  await withAdmin((admin) => dropRunDatabases(admin, run));
  await removeSeededDataDir(run);
}

/** Runs `work` on a connection to DATABASE_URL's server; nothing when the run is on the embedded database. */
async function withAdmin(work: (admin: Knex) => Promise<void>): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  // Creating and dropping databases on a busy machine takes longer than a request's bounds (open-database.ts).
  const admin = openPostgres({ url, poolMax: 1, boundStatements: false });
  try {
    await work(admin.db);
  } finally {
    await admin.close();
  }
}
