import { expect } from 'chai';
import type { Knex } from 'knex';
import { queryRows } from '../../../src/db/query/query-rows.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The `query` events knex emitted while `body` ran. */
async function queryEvents(db: Knex, body: () => Promise<void>): Promise<{ sql: string; bindings: readonly unknown[] }[]> {
  const seen: { sql: string; bindings: readonly unknown[] }[] = [];
  const listen = (query: { sql: string; bindings: readonly unknown[] }): void => {
    seen.push({ sql: query.sql, bindings: query.bindings });
  };
  db.on('query', listen);
  try {
    await body();
  } finally {
    db.off('query', listen);
  }
  return seen;
}

describe('queryRows', () => {
  let db: Knex;
  beforeEach(async () => {
    ({ db } = await testDatabase());
  });

  it('runs an engine query with its ? placeholders bound in order, and returns its rows', async () => {
    const { brand } = await resetToBrand();
    await insert('carton-sizes', brand.id, [{ name: 'Small', lengthCm: '10.00' }, { name: 'Large', lengthCm: '80.00' }]);
    const rows = await queryRows(db, {
      sql: `select t."name", t."length_cm"::text as "lengthCm" from "carton_sizes" t where t."brand_id" = ? and t."length_cm" > ? order by t."name"`,
      bindings: [brand.id, '20'],
    });
    expect(rows).to.deep.equal([{ name: 'Large', lengthCm: '80.00' }]);
  });

  it("still tells knex's listeners what runs", async () => {
    const events = await queryEvents(db, async () => {
      await queryRows(db, { sql: 'select ?::int as "n"', bindings: [1] });
    });
    expect(events).to.deep.equal([{ sql: 'select ?::int as "n"', bindings: [1] }]);
  });

  it('gives its connection back to the pool, after a failure too', async () => {
    const failure = await queryRows(db, { sql: 'select * from no_such_table where id = ?', bindings: [1] }).then(() => null, (error: Error) => error);
    expect(failure?.message).to.match(/no_such_table/);
    // More queries at once than any pool here holds connections: each waits for one that was given back.
    const answers = await Promise.all(Array.from({ length: 25 }, (_, n) => queryRows(db, { sql: 'select ?::int as "n"', bindings: [n], prepare: n % 2 === 0 })));
    expect(answers.map((rows) => rows[0]!.n)).to.deep.equal(Array.from({ length: 25 }, (_, n) => n));
  });
});
