import { expect } from 'chai';
import { openPostgres, POSTGRES_TIMEOUTS } from '../../../src/db/connection/open-database.ts';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { poolUsage } from '../../../src/db/connection/postgres-pool.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { LocalPostgres } from '../../faults/local-postgres.ts';

describeDatabaseFree?.('connections whose query got no answer (a frozen Postgres)', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;

  before(async () => {
    cluster = await LocalPostgres.create();
    await cluster.start();
  });
  after(() => cluster?.destroy());

  it('are closed and dropped by the pool, through knex (a key lookup) and through the engine\'s query path alike, so the next query gets a new session', async () => {
    const warnings: string[] = [];
    const database = openPostgres({ url: cluster.url, poolMax: 2, boundStatements: true, log: { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) } });
    const pid = async (): Promise<number> => ((await database.db.raw('select pg_backend_pid() as pid')) as { rows: { pid: number }[] }).rows[0]!.pid;
    try {
      // Two sessions in the pool.
      const before = await Promise.all([
        database.db.raw('select pg_backend_pid() as pid, pg_sleep(0.2)'),
        queryRows(database.db, { sql: 'select pg_backend_pid() as pid, pg_sleep(0.2)', bindings: [] }),
      ]);
      const old = new Set([(before[0] as { rows: { pid: number }[] }).rows[0]!.pid, (before[1] as { pid: number }[])[0]!.pid]);
      expect(old.size).to.equal(2);

      cluster.freeze();
      let failures: unknown[];
      const started = performance.now();
      try {
        failures = await Promise.all([
          database.db.raw('select 1').then(() => null, (error: unknown) => error),
          queryRows(database.db, { sql: 'select 2', bindings: [] }).then(() => null, (error: unknown) => error),
        ]);
      } finally {
        cluster.thaw();
      }
      const waited = performance.now() - started;
      expect(failures.map((error) => (error as Error | null)?.message ?? 'answered')).to.deep.equal(['select 1 - Query read timeout', 'Query read timeout']);
      expect(waited, 'the client-side query timeout ended both').to.be.within(POSTGRES_TIMEOUTS.queryMs - 200, POSTGRES_TIMEOUTS.queryMs + 3_000);

      // Thawed, the old sessions would answer again: only a dropped connection explains new pids.
      expect(poolUsage(database.db)!.used).to.equal(0);
      const after = new Set(await Promise.all([pid(), pid()]));
      for (const fresh of after) expect(old.has(fresh), `session ${fresh} is one of the frozen ones`).to.equal(false);
      expect(warnings, 'the pool says why it dropped each').to.deep.equal(['Connection Error: Query read timeout', 'Connection Error: Query read timeout']);
    } finally {
      await database.close();
    }
  });
});
