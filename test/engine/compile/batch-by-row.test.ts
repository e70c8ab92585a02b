import { expect } from 'chai';
import { batchByRow, withBatch } from '../../../src/engine/compile/batch-by-row.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('batchByRow', () => {
  it('runs the query once per request, in a lateral subquery over one row of values per request', () => {
    const plan = batchByRow('select t."id" from "colors" t where t."brand_id" = ? and t."id" = ? and t."note" = \'\\?\'', 2);
    expect(plan.sql).to.equal(
      'select r."i" as "__batch", q.* from unnest(?::uuid[], ?::uuid[]) with ordinality as r(p1, p2, i)' +
        ' cross join lateral (select t."id" from "colors" t where t."brand_id" = r."p1" and t."id" = r."p2" and t."note" = \'\\?\') q',
    );
    expect(() => batchByRow('select ?', 2)).to.throw(/binds 2 values, its text has 1/);
  });

  it('lets a query join a batch only when every value it binds is a UUID', () => {
    const plan = batchByRow('select ? , ?', 2);
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, B] }, plan).batch).to.equal(plan);
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, 'not-a-uuid'] }, plan).batch).to.equal(undefined);
    expect(withBatch({ sql: 'select ?, ?', bindings: [A, 7] }, plan).batch).to.equal(undefined);
  });
});
