import { expect } from 'chai';
import { keysetBranches, orderBy, pageRows } from '../../../src/engine/compile/keyset-page.ts';
import type { ListSort } from '../../../src/engine/compile/list-sorts.ts';
import type { Field } from '../../../src/engine/definition/resource.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'string', column: name, join: null, sourceColumn: name, nullable: true, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});
const createdAt = field('createdAt', { type: 'timestamp', nullable: false, column: 'created_at', sourceColumn: 'created_at' });
const code = field('code', { column: 'code', sourceColumn: 'code' });
const amount = field('amount', { type: 'decimal', nullable: false, column: 'amount', sourceColumn: 'amount' });
const sort = (f: Field, descending = false): ListSort => ({ name: `${descending ? '-' : ''}${f.name}`, field: f, descending });
const AT = '2026-03-01T09:30:00.123456Z';
const ID = '22222222-2222-4222-8222-222222222222';

describe('keyset pages in any order', () => {
  it('orders by the field, then created_at and id, all in the sort\'s direction', () => {
    expect(orderBy(sort(createdAt), 't')).to.equal(' order by t."created_at", t."id"');
    expect(orderBy(sort(createdAt, true), 't')).to.equal(' order by t."created_at" desc, t."id" desc');
    expect(orderBy(sort(code), 'u')).to.equal(' order by u."code", u."created_at", u."id"');
    expect(orderBy(sort(code, true), 't')).to.equal(' order by t."code" desc, t."created_at" desc, t."id" desc');
  });

  it('starts a first page with no condition, in every order', () => {
    for (const s of [sort(createdAt), sort(code, true), sort(amount)]) {
      expect(keysetBranches({ sort: s, after: null, opaque: false })).to.deep.equal([{ sql: '', bindings: [] }]);
    }
  });

  it('goes on after a cursor in createdAt order by the pair, either way', () => {
    expect(keysetBranches({ sort: sort(createdAt), after: { createdAt: AT, id: ID }, opaque: false })).to.deep.equal([
      { sql: '(t."created_at", t."id") > (?::timestamptz, ?::uuid)', bindings: [AT, ID] },
    ]);
    expect(keysetBranches({ sort: sort(createdAt, true), after: { createdAt: AT, id: ID }, opaque: true })).to.deep.equal([
      { sql: '(t."created_at", t."id") < ((select ?::timestamptz), (select ?::uuid))', bindings: [AT, ID] },
    ]);
  });

  it('goes on after a value of a field that is never null by one row comparison, the value cast to its type', () => {
    expect(keysetBranches({ sort: sort(amount), after: { createdAt: AT, id: ID, key: '40.50' }, opaque: false })).to.deep.equal([
      { sql: '(t."amount", t."created_at", t."id") > (?::numeric, ?::timestamptz, ?::uuid)', bindings: ['40.50', AT, ID] },
    ]);
  });

  // The table of keyset-page.ts: a nullable field's rest of the walk is one or two ranges.
  it('goes on after a value of a nullable field: ascending, the greater values then every null; descending, the smaller values', () => {
    const after = { createdAt: AT, id: ID, key: 'B-7' };
    expect(keysetBranches({ sort: sort(code), after, opaque: false })).to.deep.equal([
      { sql: '(t."code", t."created_at", t."id") > (?::text, ?::timestamptz, ?::uuid)', bindings: ['B-7', AT, ID] },
      { sql: 't."code" is null', bindings: [] },
    ]);
    expect(keysetBranches({ sort: sort(code, true), after, opaque: false })).to.deep.equal([
      { sql: '(t."code", t."created_at", t."id") < (?::text, ?::timestamptz, ?::uuid)', bindings: ['B-7', AT, ID] },
    ]);
  });

  it('goes on after a null: ascending, the later nulls; descending, the later nulls then every value', () => {
    const after = { createdAt: AT, id: ID, key: null };
    expect(keysetBranches({ sort: sort(code), after, opaque: false })).to.deep.equal([
      { sql: 't."code" is null and (t."created_at", t."id") > (?::timestamptz, ?::uuid)', bindings: [AT, ID] },
    ]);
    expect(keysetBranches({ sort: sort(code, true), after, opaque: false })).to.deep.equal([
      { sql: 't."code" is null and (t."created_at", t."id") < (?::timestamptz, ?::uuid)', bindings: [AT, ID] },
      { sql: 't."code" is not null', bindings: [] },
    ]);
  });

  it('reads one range as the plain statement it has always been, and several as ordered, limited branches merged in order', () => {
    const scope = { sql: 't."brand_id" = ?', bindings: ['b'] };
    const filters = { sql: 't."status" = ?', bindings: ['s'] };
    const one = pageRows({ table: '"t1"', scopes: [scope], filters, branches: [{ sql: '', bindings: [] }], sort: sort(createdAt), limit: 26 });
    expect(one).to.deep.equal({ sql: 'select t.* from "t1" t where t."brand_id" = ? and t."status" = ? order by t."created_at", t."id" limit 26', bindings: ['b', 's'] });
    const shared = [scope, { sql: 't."brand_id" is null', bindings: [] }];
    const branches = keysetBranches({ sort: sort(code), after: { createdAt: AT, id: ID, key: 'B' }, opaque: false });
    const merged = pageRows({ table: '"t1"', scopes: shared, filters: { sql: '', bindings: [] }, branches, sort: sort(code), limit: 3 });
    const range = (where: string) => `(select t.* from "t1" t where ${where} order by t."code", t."created_at", t."id" limit 3)`;
    expect(merged.sql).to.equal(`select u.* from (${[
      range('t."brand_id" = ? and (t."code", t."created_at", t."id") > (?::text, ?::timestamptz, ?::uuid)'),
      range('t."brand_id" = ? and t."code" is null'),
      range('t."brand_id" is null and (t."code", t."created_at", t."id") > (?::text, ?::timestamptz, ?::uuid)'),
      range('t."brand_id" is null and t."code" is null'),
    ].join(' union all ')}) u order by u."code", u."created_at", u."id" limit 3`);
    expect(merged.bindings).to.deep.equal(['b', 'B', AT, ID, 'b', 'B', AT, ID]);
  });
});
