import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { column, joinFragments, scopeCondition, type SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { createBrand, insert } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';

/** The ids of a table's rows that a fragment, as a where clause on alias `t`, keeps. */
async function idsWhere(db: Knex, table: string, where: SqlFragment): Promise<string[]> {
  const result = (await db.raw(`select t.id from "${table}" t where ${where.sql} order by t.id`, where.bindings as Knex.RawBinding[])) as { rows: { id: string }[] };
  return result.rows.map((row) => row.id);
}

describe('SQL fragments', () => {
  it('quotes a checked column under its alias, and refuses an unsafe name', () => {
    expect(column('t', 'created_at')).to.equal('t."created_at"');
    expect(() => column('t', 'name"; drop table brands; --')).to.throw(/not a safe SQL identifier/);
  });

  it('joins fragments with the bindings in the order of their placeholders', () => {
    const joined = joinFragments([{ sql: 'a = ?', bindings: [1] }, { sql: 'b between ? and ?', bindings: [2, 3] }, { sql: 'c is null', bindings: [] }], ' and ');
    expect(joined).to.deep.equal({ sql: 'a = ? and b between ? and ? and c is null', bindings: [1, 2, 3] });
    expect(joinFragments([], ' and ')).to.deep.equal({ sql: '', bindings: [] });
  });

  describe('scopeCondition, run on the database', () => {
    let db: Knex;
    let acme: { id: string };
    let globex: { id: string };

    beforeEach(async () => {
      ({ db } = await testDatabase());
      await resetDatabase(db);
      acme = await createBrand('acme');
      globex = await createBrand('globex');
    });

    it("keeps a brand's own rows of a brand-owned table", async () => {
      const [mine] = await insert('carton-sizes', acme.id, [{ name: 'Mine' }]);
      await insert('carton-sizes', globex.id, [{ name: 'Theirs' }]);
      const where = scopeCondition({ alias: 't', scope: 'brand', brandId: acme.id });
      expect(where).to.deep.equal({ sql: 't."brand_id" = ?', bindings: [acme.id] });
      expect(await idsWhere(db, 'carton_sizes', where)).to.deep.equal([mine!.id]);
    });

    it('keeps its own rows and the rows of no brand of a shared table', async () => {
      const [own] = await insert('countries', acme.id, [{ code: 'AA', name: 'Own' }]);
      const [shared] = await insert('countries', null, [{ code: 'PT', name: 'Portugal' }]);
      await insert('countries', globex.id, [{ code: 'GG', name: 'Theirs' }]);
      const where = scopeCondition({ alias: 't', scope: 'shared', brandId: acme.id });
      expect(where.bindings).to.deep.equal([acme.id]);
      expect(await idsWhere(db, 'countries', where)).to.deep.equal([own!.id, shared!.id].sort());
    });

    it('keeps only the brand itself of the tenant table', async () => {
      const where = scopeCondition({ alias: 't', scope: 'tenant', brandId: acme.id });
      expect(await idsWhere(db, 'brands', where)).to.deep.equal([acme.id]);
      expect(await idsWhere(db, 'brands', scopeCondition({ alias: 't', scope: 'tenant', brandId: randomUUID() }))).to.deep.equal([]);
    });
  });
});
