import { expect } from 'chai';
import { SMALL_BATCH } from '../../../src/engine/compile/changes-queries.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { listedRecords, newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

/**
 * What a batch of the changes feed promises at its end (CONTRACT.md §6) when
 * records change while it is read, in both ways a batch reads its pages
 * (changes-queries.ts): a large batch walking the ids, and records whose
 * value comes from a joined row. Assertions hold with repeats allowed (an
 * item may come again in a later batch), so the file runs beside others.
 */
describe('changes feed batches: records written while a batch is read, joined rows, changed ids', function () {
  this.timeout(60_000);
  let brand: { id: string; slug: string };
  let key: string;
  const cartons = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
  });

  const sql = async (text: string, bindings: unknown[] = []): Promise<{ rows: Record<string, unknown>[] }> =>
    (await testDatabase()).db.raw(text, bindings as string[]) as Promise<{ rows: Record<string, unknown>[] }>;
  const batch = (copy: SyncCopy, path = cartons, limit?: number) => syncBatch({ server, key, path, copy, ...(limit ? { limit } : {}) });
  const listed = (path: string): Promise<Map<string, unknown>> => listedRecords({ server, key, path });

  it(`a batch of more than ${SMALL_BATCH} changes walks the ids: a record written ahead of the walk comes in its last state, one written behind it in the next batch, none twice`, async () => {
    const copy = newCopy();
    await batch(copy);
    await sql(`insert into carton_sizes (brand_id, name) select ?, 'c' || n from generate_series(1, ${SMALL_BATCH + 50}) n`, [brand.id]);
    const walks: string[] = [];
    const watch = (query: { sql: string }): void => {
      if (query.sql.startsWith('with k as')) walks.push(query.sql.includes('greatest(') ? 'large' : 'small');
    };
    (await testDatabase()).served.on('query', watch);
    const first = await server.request(`${cartons}/changes?limit=1000&syncToken=${copy.token}`, { key });
    (await testDatabase()).served.off('query', watch);
    expect(walks).to.deep.equal(['large']);
    const passed: string[] = first.body.items.map((item: { id: string }) => item.id);
    const last = passed[passed.length - 1]!;
    const [ahead, gone] = (await sql('select id from carton_sizes where brand_id = ? and id > ? order by id limit 2', [brand.id, last])).rows.map((row) => row.id as string);
    await sql('update carton_sizes set name = ? where id = ?', ['ahead', ahead]);
    await sql('update carton_sizes set name = ? where id = ?', ['behind', passed[0]]);
    await sql('delete from carton_sizes where id = ?', [gone]);
    const [low, high] = ['00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff'];
    await sql("insert into carton_sizes (id, brand_id, name) values (?, ?, 'low'), (?, ?, 'high')", [low, brand.id, high, brand.id]);

    for (const item of first.body.items) copy.records.set(item.id, item.record);
    const rest = await syncBatch({ server, key, path: cartons, copy, limit: 1000, cursor: first.body.nextCursor });
    const name = (id: string): unknown => rest.items.find((item) => item.id === id)?.record?.name;
    expect(name(ahead!)).to.equal('ahead');
    expect(rest.items.some((item) => item.id === passed[0]), 'behind the walk: not again in this batch').to.equal(false);
    expect(copy.records.has(gone!)).to.equal(false);
    expect(name(high)).to.equal('high');
    expect(rest.items.some((item) => item.id === low)).to.equal(false);
    expect(copy.records.size).to.equal(SMALL_BATCH + 50 - 1 + 1);

    const next = await batch(copy, cartons, 1000);
    expect(next.changed.map((item) => [item.id, item.record?.name]).sort()).to.deep.equal([[low, 'low'], [passed[0], 'behind']].sort());
    expect(copy.records).to.deep.equal(await listed(cartons));
  });

  it('a record read from a joined row changes when that row does: a category renamed brings its products again', async () => {
    const [category, otherCategory] = await insert('categories', brand.id, [{ name: 'Shoes' }, { name: 'Hats' }]);
    const products = await insert('products', brand.id, [
      { code: 'P1', categoryId: category!.id }, { code: 'P2', categoryId: category!.id }, { code: 'P3', categoryId: otherCategory!.id },
    ]);
    const copy = newCopy();
    await batch(copy, '/brands/acme/products');
    await sql('update categories set name = ? where id = ?', ['Boots', category!.id]);
    const { changed } = await batch(copy, '/brands/acme/products');
    expect(changed.map((item) => item.id).sort()).to.deep.equal([products[0]!.id, products[1]!.id].sort());
    expect(changed.map((item) => item.record!.category)).to.deep.equal(['Boots', 'Boots']);
    expect(copy.records).to.deep.equal(await listed('/brands/acme/products'));
  });

  it('a row whose id changes is a delete of the old id and an upsert of the new one', async () => {
    const [a] = await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const copy = newCopy();
    await batch(copy);
    const renamed = (await sql('update carton_sizes set id = gen_random_uuid() where id = ? returning id', [a!.id])).rows[0]!.id as string;
    const { changed } = await batch(copy);
    expect(changed.map((item) => [item.change, item.id]).sort()).to.deep.equal([['delete', a!.id], ['upsert', renamed]].sort());
    expect(copy.records).to.deep.equal(await listed(cartons));
  });
});
