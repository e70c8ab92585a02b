import { closeTestDatabase } from './test-database.ts';

/**
 * Mocha root hooks. A serial run closes its database (and drops it on
 * Postgres) once, at the end. In a parallel run mocha runs root hooks around
 * every test file in a worker: there the database stays open for the worker's
 * next file, and the run's global teardown (run-fixtures.ts) drops it.
 */
const inWorker = process.env.MOCHA_WORKER_ID !== undefined;

export const mochaHooks = {
  async afterAll(): Promise<void> {
    if (!inWorker) await closeTestDatabase();
  },
};
