import { expect } from 'chai';
import type { Knex } from 'knex';
import { queryRows } from '../../../src/db/query/query-rows.ts';

/**
 * What the prepared-statement tests of both databases ask (Postgres's pool in
 * prepared-statements.test.ts, the embedded connection in
 * embedded-statements.test.ts): both keep their statements where
 * `pg_prepared_statements` shows them.
 */

/** The statements prepared on the connection, oldest first; with `mark`, only those whose text has it. */
export async function preparedOn(db: Knex, mark = ''): Promise<string[]> {
  const result = (await db.raw(`select statement from pg_prepared_statements where name like 'bcat\\_%' and strpos(statement, ?) > 0 order by prepare_time`, [mark])) as { rows: { statement: string }[] };
  return result.rows.map((row) => row.statement);
}

/** One shape per `n` (and `mark`, so that tests can share a database). */
export const ask = (db: Knex, n: number, mark = '') => queryRows(db, { sql: `select ?::int + ${n} as "value"${mark}`, bindings: [1] });

/** On a connection that keeps 2 statements: the least recently used one goes, and comes back prepared when asked again. */
export async function expectLeastRecentlyUsedDropped(db: Knex): Promise<void> {
  await ask(db, 1);
  await ask(db, 2);
  await ask(db, 1);
  await ask(db, 3);
  // Which two, not in which order: two statements prepared within one tick of the clock share a prepare_time.
  expect(await preparedOn(db)).to.have.members(['select $1::int + 1 as "value"', 'select $1::int + 3 as "value"']);
  expect(await ask(db, 2)).to.deep.equal([{ value: 3 }]);
  expect(await preparedOn(db)).to.have.members(['select $1::int + 3 as "value"', 'select $1::int + 2 as "value"']);
}
