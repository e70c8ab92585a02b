import { expect } from 'chai';
import pg from 'pg';
import { waitUntilIdle } from '../../../bench/measure/wait-idle.ts';
import { testDatabase } from '../../support/test-database.ts';

// It reads pg_stat_activity: real Postgres only.
const onPostgres = process.env.DATABASE_URL ? describe : null;

onPostgres?.('waitUntilIdle (Postgres)', () => {
  async function session(applicationName: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: (await testDatabase()).url!, application_name: applicationName });
    await client.connect();
    return client;
  }

  it('waits while another session runs a statement, unless that session is one it was told to ignore', async () => {
    const monitor = await session('wait-idle-monitor');
    const busy = await session('wait-idle-busy');
    try {
      expect(await waitUntilIdle({ client: monitor, timeoutMs: 2_000 }), 'nothing runs').to.equal(true);
      const sleeping = busy.query('select pg_sleep(3)');
      // Until the statement shows as active.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await waitUntilIdle({ client: monitor, timeoutMs: 300 }), 'a statement runs').to.equal(false);
      // Up to a second, while the statement still runs: another session of the worker's database (autovacuum after
      // the files before this one, or what their servers left running) can be active for a moment; it failed once so.
      expect(await waitUntilIdle({ client: monitor, timeoutMs: 1_000, ignore: ['wait-idle-busy'] }), 'it is ignored').to.equal(true);
      expect(await waitUntilIdle({ client: monitor, timeoutMs: 8_000 }), 'it ended within the wait').to.equal(true);
      await sleeping;
    } finally {
      await busy.end();
      await monitor.end();
    }
  });
});
