import { expect } from 'chai';
import { openPostgres } from '../../../src/db/connection/open-database.ts';
import { ALWAYS_READY, READINESS_BACKOFF, waitForSchema, type ReadinessLog } from '../../../src/db/connection/schema-readiness.ts';
import { freePort } from '../../support/free-port.ts';
import { testDatabase } from '../../support/test-database.ts';
import { waitFor } from '../../support/wait-for.ts';

/** knex's warnings about connections that fail on purpose. */
const quiet = { warn: () => undefined, error: () => undefined };

function collectingLog(): ReadinessLog & { lines: { level: 'warn' | 'info'; fields: Record<string, unknown>; message: string }[] } {
  const lines: { level: 'warn' | 'info'; fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    warn: (fields, message) => void lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
    info: (fields, message) => void lines.push({ level: 'info', fields: fields as Record<string, unknown>, message }),
  };
}

describe('waiting for the schema (a server started before its database)', () => {
  it('is ready after one attempt on a migrated database, and says so once', async () => {
    const { db } = await testDatabase();
    const log = collectingLog();
    const readiness = waitForSchema({ db, log });
    try {
      await readiness.whenReady;
      expect(readiness.ready()).to.equal(true);
      expect(log.lines).to.deep.equal([{ level: 'info', fields: { attempt: 1 }, message: 'database ready: schema read and current, serving' }]);
    } finally {
      readiness.stop();
    }
  });

  it('tries again with a doubling, capped wait while Postgres refuses, one line per attempt, and says when to come back', async () => {
    const database = openPostgres({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, log: quiet });
    const log = collectingLog();
    const readiness = waitForSchema({ db: database.db, log, backoff: { firstMs: 20, maxMs: 80 } });
    try {
      await waitFor(async () => log.lines.length >= 5, { timeoutMs: 10_000, intervalMs: 20, what: '5 attempts' });
      expect(readiness.ready()).to.equal(false);
      const lines = log.lines.slice(0, 5);
      expect(lines.map((line) => line.fields)).to.deep.equal([20, 40, 80, 80, 80].map((retryInMs, i) => ({ attempt: i + 1, retryInMs })));
      for (const line of lines) {
        expect(line.level).to.equal('warn');
        expect(line.message).to.match(/^database not ready: cannot read the schema: connect ECONNREFUSED 127\.0\.0\.1:\d+; trying again in 0\.0[248] s$/);
      }
      expect(readiness.retryAfterSeconds(), 'whole seconds, at least 1').to.equal(1);
    } finally {
      readiness.stop();
      await database.close();
    }
  });

  it('waits from half a second up to 5 s by default', () => {
    expect(READINESS_BACKOFF).to.deep.equal({ firstMs: 500, maxMs: 5_000 });
    expect([ALWAYS_READY.ready(), ALWAYS_READY.retryAfterSeconds()]).to.deep.equal([true, 1]);
  });

  // On Postgres only: a schema of its own through the connection's search_path.
  if (process.env.DATABASE_URL) {
    it('waits while the database has no schema, then while migrations are pending, without creating knex\'s tables', async () => {
      const { db, url } = await testDatabase();
      await db.raw('create schema if not exists readiness_unmigrated');
      const unmigrated = new URL(url!);
      unmigrated.searchParams.set('options', '-c search_path=readiness_unmigrated');
      const database = openPostgres({ url: unmigrated.toString(), log: quiet });
      const log = collectingLog();
      const readiness = waitForSchema({ db: database.db, log, backoff: { firstMs: 20, maxMs: 20 } });
      try {
        await waitFor(async () => log.lines.length >= 2, { timeoutMs: 10_000, intervalMs: 20, what: 'two attempts' });
        expect(log.lines[0]!.message).to.equal('database not ready: the database has no schema yet: run `npm run db:migrate`; trying again in 0.02 s');
        const tables = await db.raw(`select table_name from information_schema.tables where table_schema = 'readiness_unmigrated'`);
        expect(tables.rows, 'the wait created nothing').to.deep.equal([]);

        await db.raw('create table readiness_unmigrated.knex_migrations (id serial primary key, name text, batch integer, migration_time timestamptz)');
        await waitFor(async () => log.lines.some((line) => /out of date/.test(line.message)), { timeoutMs: 10_000, intervalMs: 20, what: 'the pending migrations' });
        expect(log.lines.find((line) => /out of date/.test(line.message))!.message)
          .to.match(/^database not ready: the schema is out of date \(\d+ pending migrations\): run `npm run db:migrate`; trying again in 0\.02 s$/);
        expect(readiness.ready()).to.equal(false);
      } finally {
        readiness.stop();
        await database.close();
        await db.raw('drop schema readiness_unmigrated cascade');
      }
    });
  }
});
