import { expect } from 'chai';
import { batchSize, changedRecords, deletedRecords, type BatchWalk, type Sources } from '../../../src/engine/compile/changes-sources.ts';
import { recordJoins } from '../../../src/engine/compile/query-parts.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { quoteIdentifier } from '../../../src/engine/definition/naming.ts';
import type { Resource } from '../../../src/engine/definition/resource.ts';
import { insert, resetToBrands } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/**
 * Where a changes batch finds its ids, run on the database: the rows (and
 * joined rows) a token's snapshot did not see, and the tombstones (the
 * statements' text: changes-queries.test.ts).
 */
describe('changes sources', () => {
  const sourcesOf = (resource: Resource): Sources => ({
    table: quoteIdentifier(resource.table), scope: resource.scope, joins: recordJoins(resource), tombstoneScope: resource.scope === 'brand' ? 'brand' : 'shared',
  });
  const run = async (fragment: SqlFragment): Promise<Record<string, unknown>[]> =>
    ((await (await testDatabase()).db.raw(fragment.sql, fragment.bindings as never)) as { rows: Record<string, unknown>[] }).rows;
  /** The ids the statements of one walk find, each statement's in order, all of them sorted and without repeats. */
  const changed = async (resource: Resource, args: { brandId: string; since: string | null; walk: BatchWalk; after?: string | null; limit?: number }): Promise<string[]> => {
    const statements = changedRecords({ sources: sourcesOf(resource), args: { after: null, limit: 100, ...args } });
    const ids = (await Promise.all(statements.map(run))).flatMap((rows) => rows.map((row) => row.id as string));
    return [...new Set(ids)].sort();
  };
  const snapshot = async (): Promise<string> => ((await run({ sql: 'select pg_current_snapshot()::text as s', bindings: [] }))[0]!.s as string);

  it('a full walk gives every record of the brand after the position, in id order, at most the limit; no token, the same', async () => {
    const { registry } = await testDatabase();
    const [acme, globex] = await resetToBrands('acme', 'globex');
    const resource = registry.get('carton-sizes');
    const ids = (await insert('carton-sizes', acme.id, [{ name: 'a' }, { name: 'b' }, { name: 'c' }])).map((row) => row.id as string).sort();
    await insert('carton-sizes', globex.id, [{ name: 'theirs' }]);
    expect(await changed(resource, { brandId: acme.id, since: null, walk: 'full' })).to.deep.equal(ids);
    expect(await changed(resource, { brandId: acme.id, since: null, walk: 'small', after: ids[0]! })).to.deep.equal(ids.slice(1));
    const [first] = changedRecords({ sources: sourcesOf(resource), args: { brandId: acme.id, since: null, walk: 'full', after: null, limit: 2 } });
    expect((await run(first!)).map((row) => row.id)).to.deep.equal(ids.slice(0, 2));
  });

  it('after a token, small and large walks find the same records: those written since, and those whose joined row changed', async () => {
    const { db, registry } = await testDatabase();
    const [acme] = await resetToBrands('acme');
    const products = registry.get('products');
    const [tops, bottoms] = await insert('categories', acme.id, [{ name: 'Tops' }, { name: 'Bottoms' }]);
    const [tee, , jeans] = await insert('products', acme.id, [{ code: 'TEE', categoryId: tops!.id }, { code: 'POLO', categoryId: tops!.id }, { code: 'JEANS', categoryId: bottoms!.id }]);
    const since = await snapshot();
    expect(await changed(products, { brandId: acme.id, since, walk: 'small' }), 'nothing yet').to.deep.equal([]);
    const [cap] = await insert('products', acme.id, [{ code: 'CAP' }]);
    await db.raw('update products set name = ? where id = ?', ['Tee', tee!.id]);
    await db.raw('update categories set name = ? where id = ?', ['Legwear', bottoms!.id]);
    const expected = [tee!.id, cap!.id, jeans!.id].sort();
    expect(await changed(products, { brandId: acme.id, since, walk: 'small' })).to.deep.equal(expected);
    expect(await changed(products, { brandId: acme.id, since, walk: 'large' })).to.deep.equal(expected);
    expect(changedRecords({ sources: sourcesOf(products), args: { brandId: acme.id, since, walk: 'small', after: null, limit: 10 } }), 'one statement per source').to.have.length(2);
  });

  it('gives a record deleted since the token once, however often, and not one that lives again', async () => {
    const { db, registry } = await testDatabase();
    const [acme, globex] = await resetToBrands('acme', 'globex');
    const resource = registry.get('carton-sizes');
    const [gone, back] = await insert('carton-sizes', acme.id, [{ name: 'gone' }, { name: 'back' }, { name: 'kept' }]);
    const [theirs] = await insert('carton-sizes', globex.id, [{ name: 'theirs' }]);
    const since = await snapshot();
    await db.raw('delete from carton_sizes where id in (?, ?, ?)', [gone!.id, back!.id, theirs!.id]);
    await insert('carton-sizes', acme.id, [{ id: gone!.id, name: 'gone' }, { id: back!.id, name: 'back' }]);
    await db.raw('delete from carton_sizes where id = ?', [gone!.id]);
    for (const walk of ['small', 'large'] as const) {
      const rows = await run(deletedRecords({ sources: sourcesOf(resource), args: { brandId: acme.id, since, walk, after: null, limit: 10 }, resource }));
      expect(rows, walk).to.deep.equal([{ id: gone!.id, deleted: true }]);
    }
  });

  it('counts the changes a token did not see, per source, for the batch\'s size', async () => {
    const { db, registry } = await testDatabase();
    const [acme] = await resetToBrands('acme');
    const resource = registry.get('carton-sizes');
    const [old] = await insert('carton-sizes', acme.id, [{ name: 'old' }]);
    const since = await snapshot();
    const size = async (): Promise<number> => {
      const count = batchSize({ sources: sourcesOf(resource), brandId: acme.id, since, resource });
      return (await run({ sql: `select ${count.sql} as n`, bindings: count.bindings }))[0]!.n as number;
    };
    expect(await size()).to.equal(0);
    await insert('carton-sizes', acme.id, [{ name: 'new 1' }, { name: 'new 2' }]);
    await db.raw('delete from carton_sizes where id = ?', [old!.id]);
    expect(await size()).to.equal(3);
  });
});
