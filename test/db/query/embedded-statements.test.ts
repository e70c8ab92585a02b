import { expect } from 'chai';
import { openEmbedded, type Database } from '../../../src/db/connection/open-database.ts';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { describeDatabaseFree } from '../../support/database-free.ts';
import { ask, expectLeastRecentlyUsedDropped, preparedOn } from './prepared-checks.ts';

/** Values of many types, each bound as a parameter and read back: prepared, the rows must be what PGlite's `query` gives. */
const TYPED = {
  sql: `select ?::int as "int", ?::bigint as "big", ?::numeric as "num", ?::boolean as "bool", ?::text as "text",
               ?::uuid as "uuid", ?::timestamptz as "at", ?::date as "day", ?::jsonb as "doc", ?::text[] as "texts",
               ?::uuid[] as "uuids", ?::int as "none", 't'::text || ? as "joined"`,
  bindings: [7, '9007199254740993', '12.50', true, 'ümlaut "quoted"', '2b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d', '2026-11-27T10:11:12.345678Z',
    '2026-11-27', JSON.stringify({ a: [1, 'two'] }), ['a', 'b,c', null], ['2b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'], null, 'ail'],
};

describeDatabaseFree?.('engine: prepared statements (the embedded database)', function () {
  this.timeout(60_000);
  // Opening an embedded database takes seconds: one with room for every test's shapes, and one of 2 for the bound.
  let shared: Database;
  let small: Database;
  before(async () => {
    shared = await openEmbedded({ dir: null, statementCache: 100 });
    small = await openEmbedded({ dir: null, statementCache: 2 });
  });
  after(async () => {
    await shared?.close();
    await small?.close();
  });

  it('prepares a query shape once and runs it again by name', async () => {
    const db = shared.db;
    expect(await ask(db, 1, ' /*once*/')).to.deep.equal([{ value: 2 }]);
    expect(await queryRows(db, { sql: 'select ?::int + 1 as "value" /*once*/', bindings: [41] })).to.deep.equal([{ value: 42 }]);
    expect(await preparedOn(db, '/*once*/')).to.deep.equal(['select $1::int + 1 as "value" /*once*/']);
  });

  it('gives the rows PGlite\'s own query gives, for every type the engine binds and reads', async () => {
    const db = shared.db;
    const unprepared = await queryRows(db, { ...TYPED, prepare: false });
    const prepared = await queryRows(db, TYPED);
    expect(await preparedOn(db, '"joined"')).to.have.length(1);
    expect(prepared).to.deep.equal(unprepared);
    expect(await queryRows(db, TYPED), 'run again by name').to.deep.equal(unprepared);
    expect(prepared[0]).to.include({ int: 7, bool: true, text: 'ümlaut "quoted"', none: null, joined: 'tail' });
    expect(prepared[0]!.texts).to.deep.equal(['a', 'b,c', null]);
  });

  it('keeps at most the configured number, closing the least recently used', async () => {
    await expectLeastRecentlyUsedDropped(small.db);
  });

  it('fails only the query that failed: a value its type refuses, a shape that does not parse; the next query answers', async () => {
    const db = shared.db;
    const byId = { sql: 'select ?::uuid as "id" /*fails*/', bindings: ['not-a-uuid'] };
    const refused = await queryRows(db, byId).then(() => null, (error: { code?: string }) => error);
    expect(refused?.code).to.equal('22P02');
    expect(await queryRows(db, { ...byId, bindings: ['2b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'] })).to.deep.equal([{ id: '2b1d3c4e-5f60-4a7b-8c9d-0e1f2a3b4c5d' }]);
    const unparsed = await queryRows(db, { sql: 'select from where ? /*fails*/', bindings: [1] }).then(() => null, (error: { code?: string }) => error);
    expect(unparsed?.code).to.equal('42601');
    expect(await preparedOn(db, '/*fails*/'), 'the shape that failed to parse is not kept').to.deep.equal(['select $1::uuid as "id" /*fails*/']);
    expect(await ask(db, 1, ' /*fails*/')).to.deep.equal([{ value: 2 }]);
  });

  it('answers when a selected column changed type under a prepared statement', async () => {
    const db = shared.db;
    await db.raw('create table changing (id int primary key, amount int)');
    await db.raw('insert into changing values (1, 5)');
    const read = () => queryRows(db, { sql: 'select amount from changing where id = ?', bindings: [1] });
    expect(await read()).to.deep.equal([{ amount: 5 }]);
    await db.raw('alter table changing alter column amount type text');
    expect(await read()).to.deep.equal([{ amount: '5' }]);
    expect(await read()).to.deep.equal([{ amount: '5' }]);
  });

  it('runs a query that asks to be planned for its values unprepared, and prepares nothing with a cache of 0', async () => {
    const db = shared.db;
    expect(await queryRows(db, { sql: 'select ?::int as "value" /*unprepared*/', bindings: [7], prepare: false })).to.deep.equal([{ value: 7 }]);
    expect(await preparedOn(db, '/*unprepared*/')).to.deep.equal([]);
    const none = await openEmbedded({ dir: null, statementCache: 0 });
    try {
      expect(await ask(none.db, 1)).to.deep.equal([{ value: 2 }]);
      expect(await preparedOn(none.db)).to.deep.equal([]);
    } finally {
      await none.close();
    }
  });

  it('keeps the queries of concurrent callers apart: each gets its own rows', async () => {
    // The small one: past its bound, statements are closed and parsed again while others wait their turn.
    const db = small.db;
    const asked = Array.from({ length: 40 }, (_, i) => queryRows(db, { sql: `select ?::int * ${i % 5} as "value"`, bindings: [i] }));
    expect((await Promise.all(asked)).map((rows) => rows[0]!.value)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i * (i % 5)));
  });
});
