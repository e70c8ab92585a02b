import { expect } from 'chai';
import { arrayLiteral, batchByRow, COUNT_COLUMN, UUID_COLUMN, withBatch, type BatchColumn } from '../../../src/engine/compile/batch-by-row.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const UUID_KEYS: BatchColumn = { type: 'uuid', array: true, accepts: UUID_COLUMN.accepts };

describe('batchByRow', () => {
  it('runs the query once per request, in a lateral subquery over one row of values per request', () => {
    const plan = batchByRow({ sql: 'select t."id" from "colors" t where t."brand_id" = ? and t."id" = ? and t."note" = \'\\?\'', columns: [UUID_COLUMN, UUID_COLUMN] });
    expect(plan.sql).to.equal(
      'select q.*, r."i" as "__batch" from unnest(?::uuid[], ?::uuid[]) with ordinality as r(p1, p2, i)' +
        ' cross join lateral (select t."id" from "colors" t where t."brand_id" = r."p1" and t."id" = r."p2" and t."note" = \'\\?\') q',
    );
    expect(() => batchByRow({ sql: 'select ?', columns: [UUID_COLUMN, UUID_COLUMN] })).to.throw(/binds 2 values, its text has 1/);
  });

  it('carries an array binding as its literal in a text column, cast back inside the lateral query, and keeps an ordered query\'s order', () => {
    const plan = batchByRow({ sql: 'select t."id", 1 as "__place" from "skus" t where t."brand_id" = ? and t."product_id" = any(?) limit ?', columns: [UUID_COLUMN, UUID_KEYS, COUNT_COLUMN], ordered: true });
    expect(plan.sql).to.equal(
      'select q.*, r."i" as "__batch" from unnest(?::uuid[], ?::text[], ?::int[]) with ordinality as r(p1, p2, p3, i)' +
        ' cross join lateral (select t."id", 1 as "__place" from "skus" t where t."brand_id" = r."p1" and t."product_id" = any(r."p2"::uuid[]) limit r."p3") q' +
        ' order by r."i", q."__place"',
    );
    const query = withBatch({ sql: 'alone', bindings: [A, [A, B], 5001] }, plan);
    expect(query.batch).to.equal(plan);
    expect(plan.travel(query.bindings)).to.deep.equal([A, `{"${A}","${B}"}`, 5001]);
    // The request's own bindings are untouched: alone, it runs as it always did.
    expect(query.bindings).to.deep.equal([A, [A, B], 5001]);
    // Bindings that are all scalars travel as they are.
    const scalars = [A, B];
    expect(batchByRow({ sql: '? ?', columns: [UUID_COLUMN, UUID_COLUMN] }).travel(scalars)).to.equal(scalars);
  });

  it('lets a query join a batch only when every value it binds certainly casts to its column', () => {
    const plan = batchByRow({ sql: 'select ? , ?', columns: [UUID_COLUMN, UUID_COLUMN] });
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, B] }, plan).batch).to.equal(plan);
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, 'not-a-uuid'] }, plan).batch).to.equal(undefined);
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, 7] }, plan).batch).to.equal(undefined);
    const keys = batchByRow({ sql: 'select ?, ?, ?', columns: [UUID_COLUMN, UUID_KEYS, COUNT_COLUMN] });
    expect(withBatch({ sql: '', bindings: [A, [A, 'nope'], 1] }, keys).batch).to.equal(undefined);
    expect(withBatch({ sql: '', bindings: [A, A, 1] }, keys).batch, 'a scalar where an array goes').to.equal(undefined);
    expect(withBatch({ sql: '', bindings: [A, [A], 1.5] }, keys).batch).to.equal(undefined);
    expect(withBatch({ sql: '', bindings: [A, [A], -1] }, keys).batch).to.equal(undefined);
    expect(withBatch({ sql: '', bindings: [A, [A]] }, keys).batch, 'too few values').to.equal(undefined);
  });

  it('writes an array literal as node-postgres does: every element quoted, quotes and backslashes escaped', () => {
    expect(arrayLiteral([])).to.equal('{}');
    expect(arrayLiteral(['a', 'b,c', 'say "hi"', 'back\\slash', '{x}', 'NULL', ' '])).to.equal('{"a","b,c","say \\"hi\\"","back\\\\slash","{x}","NULL"," "}');
    expect(arrayLiteral([1, -2, true])).to.equal('{"1","-2","true"}');
  });
});
