import pg from 'pg';
import { testDatabase } from './test-database.ts';

/**
 * A connection of its own to this process's Postgres test database, beside
 * the pool the tests and servers use: for a transaction left open, a late
 * commit, a writer that runs while the client reads. Real Postgres only
 * (PGlite has one connection). `lockTimeout`: writers that wait on each other
 * give up that soon and try again, rather than wait for deadlock detection.
 */
export async function secondConnection({ lockTimeout }: { lockTimeout?: string } = {}): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: (await testDatabase()).url! });
  await client.connect();
  if (lockTimeout !== undefined) await client.query(`set lock_timeout = '${lockTimeout}'`);
  return client;
}
