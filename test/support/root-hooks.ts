import { closeTestDatabase } from './test-database.ts';

/** Mocha root hooks: the run's database is closed (and dropped on Postgres) once, at the end. */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeTestDatabase();
  },
};
