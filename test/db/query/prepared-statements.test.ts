import { expect } from 'chai';
import type { Knex } from 'knex';
import { openPostgres, type Database } from '../../../src/db/connection/open-database.ts';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { testDatabase } from '../../support/test-database.ts';
import { ask, expectLeastRecentlyUsedDropped, preparedOn } from './prepared-checks.ts';

// The embedded database prepares too, on its one connection: embedded-statements.test.ts.
if (process.env.DATABASE_URL) describe('engine: prepared statements (Postgres)', () => {
  const opened: Database[] = [];
  const open = async (statementCache: number, pooler: 'transaction' | null = null): Promise<Knex> => {
    const { url } = await testDatabase();
    const database = openPostgres({ url: url!, poolMax: 1, statementCache, pooler });
    opened.push(database);
    return database.db;
  };
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });

  it('prepares a query shape once per connection and runs it again by name', async () => {
    const db = await open(10);
    expect(await ask(db, 1)).to.deep.equal([{ value: 2 }]);
    expect(await queryRows(db, { sql: 'select ?::int + 1 as "value"', bindings: [41] })).to.deep.equal([{ value: 42 }]);
    expect(await preparedOn(db)).to.deep.equal(['select $1::int + 1 as "value"']);
  });

  it('keeps at most the configured number per connection, dropping the least recently used from Postgres', async () => {
    await expectLeastRecentlyUsedDropped(await open(2));
  });

  it('behind a transaction pooler that keeps statements itself, leaves bounding them to the pooler: no SQL deallocate', async () => {
    // The pooler (PgBouncer 1.21+, max_prepared_statements) keeps its own bounded cache per server connection; a
    // `deallocate` in SQL would name whichever server connection ran it. Here the one direct connection shows it.
    const db = await open(2, 'transaction');
    for (const n of [1, 2, 3, 1]) expect(await ask(db, n)).to.deep.equal([{ value: n + 1 }]);
    expect(await preparedOn(db), 'nothing deallocated').to.have.members(['select $1::int + 1 as "value"', 'select $1::int + 2 as "value"', 'select $1::int + 3 as "value"']);
  });

  it('answers when Postgres has forgotten its statements (DISCARD ALL, as a pooler does), and prepares again', async () => {
    const db = await open(10);
    await ask(db, 1);
    await db.raw('discard all');
    expect(await preparedOn(db)).to.deep.equal([]);
    expect(await ask(db, 1)).to.deep.equal([{ value: 2 }]);
    expect(await ask(db, 1)).to.deep.equal([{ value: 2 }]);
    expect(await preparedOn(db)).to.deep.equal(['select $1::int + 1 as "value"']);
  });

  it('answers when a selected column changed type under a prepared statement', async () => {
    const db = await open(10);
    await db.raw('create temporary table changing (id int primary key, amount int)');
    await db.raw('insert into changing values (1, 5)');
    const read = () => queryRows(db, { sql: 'select amount from changing where id = ?', bindings: [1] });
    expect(await read()).to.deep.equal([{ amount: 5 }]);
    await db.raw('alter table changing alter column amount type text');
    expect(await read()).to.deep.equal([{ amount: '5' }]);
  });

  it('runs a query that asks to be planned for its values unprepared', async () => {
    const db = await open(10);
    expect(await queryRows(db, { sql: 'select ?::int as "value"', bindings: [7], prepare: false })).to.deep.equal([{ value: 7 }]);
    expect(await preparedOn(db)).to.deep.equal([]);
  });

  it('prepares nothing with a cache of 0', async () => {
    const db = await open(0);
    await ask(db, 1);
    expect(await preparedOn(db)).to.deep.equal([]);
  });
});
