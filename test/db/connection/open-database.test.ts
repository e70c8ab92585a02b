import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openEmbedded, openPostgres, POSTGRES_TIMEOUTS } from '../../../src/db/connection/open-database.ts';
import { freePort } from '../../support/free-port.ts';
import { testDatabase } from '../../support/test-database.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';

describe('opening a database', () => {
  it('bounds every wait on Postgres, the statement below the client\'s own query timeout', () => {
    expect(POSTGRES_TIMEOUTS).to.deep.equal({ acquireMs: 2_000, connectMs: 2_000, statementMs: 4_000, queryMs: 5_000 });
    expect(Object.isFrozen(POSTGRES_TIMEOUTS)).to.equal(true);
    // CONTRACT.md §4: a request on a database that answers nothing ends within about 7 s (a wait for a connection, then one query).
    expect(POSTGRES_TIMEOUTS.acquireMs + POSTGRES_TIMEOUTS.queryMs).to.be.at.most(7_000);
    expect(POSTGRES_TIMEOUTS.connectMs, 'pg-pool has one setting for both').to.equal(POSTGRES_TIMEOUTS.acquireMs);
    expect(POSTGRES_TIMEOUTS.statementMs).to.be.below(POSTGRES_TIMEOUTS.queryMs);
  });

  describeDatabaseFree?.('the embedded database', () => {
    it('opens the embedded database in memory, with the extensions the search indexes need', async () => {
      const database = await openEmbedded({ dir: null });
      try {
        expect(database.kind).to.equal('embedded');
        await database.db.raw('create extension if not exists pg_trgm');
        await database.db.raw('create extension if not exists btree_gin');
        const result = (await database.db.raw(`select similarity('parka', 'parkas') > 0.5 as close`)) as { rows: { close: boolean }[] };
        expect(result.rows).to.deep.equal([{ close: true }]);
      } finally {
        await database.close();
      }
    });

    it('keeps the embedded database in its folder from one opening to the next', async function () {
      this.timeout(60_000);
      const dir = await mkdtemp(join(tmpdir(), 'bcat-embedded-'));
      try {
        const first = await openEmbedded({ dir: join(dir, 'pglite') });
        await first.db.raw('create table kept (n integer)');
        await first.db.raw('insert into kept values (7)');
        await first.close();
        const second = await openEmbedded({ dir: join(dir, 'pglite') });
        try {
          expect(((await second.db.raw('select n from kept')) as { rows: unknown[] }).rows).to.deep.equal([{ n: 7 }]);
        } finally {
          await second.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  it("sends knex's own warnings to the log given, not the console", async () => {
    const warnings: string[] = [];
    const log = { warn: (message: string) => warnings.push(message), error: (message: string) => warnings.push(message) };
    const refused = openPostgres({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, poolMax: 1, log });
    try {
      const failure = await refused.db.raw('select 1').then(() => null, (error: Error) => error);
      expect(failure?.message).to.match(/ECONNREFUSED/);
      expect(warnings.join('\n')).to.match(/ECONNREFUSED/);
      expect(refused.kind).to.equal('postgres');
    } finally {
      await refused.close();
    }
  });

  // On Postgres only: the embedded database has no session settings from a URL.
  if (process.env.DATABASE_URL) describe('on Postgres', () => {
    const settings = async (boundStatements: boolean): Promise<Record<string, string>> => {
      const database = openPostgres({ url: (await testDatabase()).url!, poolMax: 1, boundStatements });
      try {
        const result = (await database.db.raw(`select current_setting('statement_timeout') as "statementTimeout", current_setting('application_name') as "applicationName"`)) as { rows: Record<string, string>[] };
        return result.rows[0]!;
      } finally {
        await database.close();
      }
    };

    it('names its sessions and limits their statements when serving', async () => {
      expect(await settings(true)).to.deep.equal({ statementTimeout: `${POSTGRES_TIMEOUTS.statementMs / 1000}s`, applicationName: 'brand-catalog-read-api' });
    });

    it('leaves statements unlimited for migrations and tools', async () => {
      expect(await settings(false)).to.deep.equal({ statementTimeout: '0', applicationName: 'brand-catalog-read-api' });
    });
  });
});
