import { expect } from 'chai';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import { createChangesCodec } from '../../../src/engine/request/changes-codec.ts';
import { expectError } from '../../resources/helpers.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { listedRecords, newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { testDatabase } from '../../support/test-database.ts';
import { TEST_CURSOR_SECRET } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';

/** The changes feed over HTTP (CONTRACT.md §6), on the run's database, rows written with triggers on. */
describe('GET /brands/{brand}/<path>/changes', () => {
  let brand: { id: string; slug: string };
  let key: string;
  const cartons = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
  });

  const sql = async (text: string, bindings: string[] = []): Promise<void> => {
    await (await testDatabase()).db.raw(text, bindings);
  };
  const batch = (copy: SyncCopy, limit?: number) => syncBatch({ server, key, path: cartons, copy, ...(limit ? { limit } : {}) });
  /** The brand's cartons as the list route gives them, by id. */
  const listed = (): Promise<Map<string, unknown>> => listedRecords({ server, key, path: cartons });

  it('a full sync gives every record as an upsert, the record as the get route gives it, then a token', async () => {
    const rows = await insert('carton-sizes', brand.id, [{ name: 'A', lengthCm: '40.50' }, { name: 'B' }, { name: 'C' }]);
    const copy = newCopy();
    const { items } = await batch(copy);
    expect(items.map((item) => item.change)).to.deep.equal(['upsert', 'upsert', 'upsert']);
    expect(new Set(items.map((item) => item.id))).to.deep.equal(new Set(rows.map((row) => row.id)));
    const one = await server.request(`${cartons}/${rows[0]!.id}`, { key });
    expect(copy.records.get(rows[0]!.id)).to.deep.equal(one.body);
    expect((await batch(copy)).changed).to.deep.equal([]);
  });

  it('then returns inserts, updates, hard deletes (delete items) and soft deletes (upserts), once each', async () => {
    const [a, b, c] = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const copy = newCopy();
    await batch(copy);
    const [d] = await insert('carton-sizes', brand.id, [{ name: 'D' }]);
    await sql('update carton_sizes set name = ? where id = ?', ['B2', b!.id]);
    await sql('delete from carton_sizes where id = ?', [c!.id]);
    const { changed: items } = await batch(copy);
    expect(items.map((item) => [item.change, item.id]).sort()).to.deep.equal([['delete', c!.id], ['upsert', b!.id], ['upsert', d!.id]].sort());
    expect(items.find((item) => item.change === 'delete')!.record).to.equal(null);
    expect(copy.records).to.deep.equal(await listed());
    expect(copy.records.has(a!.id)).to.equal(true);

    const [line] = await insert('goods-receipt-lines', brand.id, [{}]);
    const lines = newCopy();
    await syncBatch({ server, key, path: '/brands/acme/goods-receipt-lines', copy: lines });
    await sql('update goods_receipt_lines set deleted_at = now() where id = ?', [line!.id]);
    const soft = await syncBatch({ server, key, path: '/brands/acme/goods-receipt-lines', copy: lines });
    expect(soft.changed.map((item) => item.change)).to.deep.equal(['upsert']);
    expect(soft.changed[0]!.record!.deletedAt).to.be.a('string');
  });

  it('a row updated three times between two calls comes once in the next batch, in its last state', async () => {
    const [a] = await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const copy = newCopy();
    await batch(copy);
    for (const name of ['A1', 'A2', 'A3']) await sql('update carton_sizes set name = ? where id = ?', [name, a!.id]);
    const { items, changed } = await batch(copy);
    expect(items.filter((item) => item.id === a!.id)).to.have.length(1);
    expect(changed).to.have.length(1);
    expect(changed[0]!.record!.name).to.equal('A3');
  });

  it('a row deleted and inserted again is one upsert; deleted, inserted and deleted again, one delete', async () => {
    const [a, b] = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const copy = newCopy();
    await batch(copy);
    await sql('delete from carton_sizes where id in (?, ?)', [a!.id, b!.id]);
    await sql(`insert into carton_sizes (id, brand_id, name) values (?, ?, 'A again'), (?, ?, 'B again')`, [a!.id, brand.id, b!.id, brand.id]);
    await sql('delete from carton_sizes where id = ?', [b!.id]);
    const { changed: items } = await batch(copy, 1);
    expect(items.map((item) => [item.change, item.id, item.record?.name ?? null]).sort()).to.deep.equal([
      ['delete', b!.id, null], ['upsert', a!.id, 'A again'],
    ].sort());
    expect(copy.records).to.deep.equal(await listed());
    // Twice in one transaction: two tombstones alike, one item.
    await (await testDatabase()).db.transaction(async (trx) => {
      await trx.raw('delete from carton_sizes where id = ?', [a!.id]);
      await trx.raw(`insert into carton_sizes (id, brand_id, name) values (?, ?, 'A3')`, [a!.id, brand.id]);
      await trx.raw('delete from carton_sizes where id = ?', [a!.id]);
    });
    expect((await batch(copy, 1)).changed).to.deep.equal([{ change: 'delete', id: a!.id, record: null }]);
  });

  it('a row moved to another brand is a delete for the old brand and an upsert for the new one', async () => {
    const other = await createBrand('globex');
    const { key: otherKey } = await createTestKey({ brands: ['globex'] });
    const [a] = await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const mine = newCopy();
    const theirs = newCopy();
    await batch(mine);
    await syncBatch({ server, key: otherKey, path: '/brands/globex/carton-sizes', copy: theirs });
    expect(theirs.records.size).to.equal(0);
    await sql('update carton_sizes set brand_id = ? where id = ?', [other.id, a!.id]);
    expect((await batch(mine)).changed.map((item) => [item.change, item.id])).to.deep.equal([['delete', a!.id]]);
    const moved = await syncBatch({ server, key: otherKey, path: '/brands/globex/carton-sizes', copy: theirs });
    expect(moved.changed.map((item) => [item.change, item.id])).to.deep.equal([['upsert', a!.id]]);
  });

  it('pages with small limits: no id twice in a batch, Link while nextCursor, the same copy as one page', async () => {
    const rows = await insert('carton-sizes', brand.id, Array.from({ length: 23 }, (_, i) => ({ name: `C${i}` })));
    const copy = newCopy();
    expect((await batch(copy, 4)).pages).to.equal(6);
    expect(copy.records).to.deep.equal(await listed());
    for (const row of rows.slice(0, 9)) await sql('update carton_sizes set name = ? where id = ?', ['x', row.id]);
    for (const row of rows.slice(20)) await sql('delete from carton_sizes where id = ?', [row.id]);
    const { changed, pages } = await batch(copy, 2);
    expect(changed).to.have.length(12);
    expect(pages, 'at least the 12 changes at 2 a page').to.be.at.least(6);
    expect(copy.records).to.deep.equal(await listed());
  });

  it('shared rows reach every brand; one brand\'s changes never reach another', async () => {
    const other = await createBrand('globex');
    const { key: otherKey } = await createTestKey({ brands: ['globex'] });
    const [shared] = await insert('units-of-measure', null, [{ code: 'pcs', name: 'Pieces', type: 'count' }]);
    await insert('units-of-measure', other.id, [{ code: 'g', name: 'Gram', type: 'weight' }]);
    await insert('carton-sizes', other.id, [{ name: 'Theirs' }]);
    const units = newCopy();
    await syncBatch({ server, key, path: '/brands/acme/units-of-measure', copy: units });
    expect([...units.records.keys()]).to.deep.equal([shared!.id]);
    const copy = newCopy();
    await batch(copy);
    await insert('carton-sizes', other.id, [{ name: 'Theirs 2' }]);
    await sql('delete from carton_sizes where brand_id = ?', [other.id]);
    expect(copy.records.size).to.equal(0);
    expect((await batch(copy)).changed).to.deep.equal([]);
    await sql('delete from units_of_measure where id = ?', [shared!.id]);
    const gone = await syncBatch({ server, key: otherKey, path: '/brands/globex/units-of-measure', copy: newCopy() });
    expect(gone.items.map((item) => item.change)).to.deep.equal(['upsert']);
    expect((await syncBatch({ server, key, path: '/brands/acme/units-of-measure', copy: units })).changed)
      .to.deep.equal([{ change: 'delete', id: shared!.id, record: null }]);
  });

  it('applies fields to each record, and answers 400 for filters, include and a limit out of 1 to 1000', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    const { items } = await syncBatch({ server, key, path: cartons, copy: newCopy(), fields: 'id,name' });
    expect(Object.keys(items[0]!.record!)).to.deep.equal(['id', 'name']);
    const big = await server.request(`${cartons}/changes?limit=1000`, { key });
    expect(big.status).to.equal(200);
    for (const query of ['limit=0', 'limit=1001', 'name=A', 'include=x', 'syncToken=a&syncToken=b']) {
      expectError(await server.request(`${cartons}/changes?${query}`, { key }), 400, 'invalid_parameter');
    }
  });

  it('checks the key and the brand as lists do', async () => {
    expectError(await server.request(`${cartons}/changes`), 401, 'unauthorized');
    expectError(await server.request('/brands/nope/carton-sizes/changes', { key }), 404, 'not_found');
    await createBrand('globex');
    expectError(await server.request('/brands/globex/carton-sizes/changes', { key }), 401, 'unauthorized');
  });

  it('a token of another brand or family is 400 cursor_mismatch, a forged one 400 invalid_cursor, an old one 410', async () => {
    const copy = newCopy();
    await batch(copy);
    const token = copy.token!;
    expectError(await server.request(`/brands/acme/options/changes?syncToken=${token}`, { key }), 400, 'cursor_mismatch');
    await createBrand('globex');
    const { key: both } = await createTestKey({ brands: ['acme', 'globex'] });
    expectError(await server.request(`/brands/globex/carton-sizes/changes?syncToken=${token}`, { key: both }), 400, 'cursor_mismatch');
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expectError(await server.request(`${cartons}/changes?syncToken=${forged}`, { key }), 400, 'invalid_cursor');
    expectError(await server.request(`${cartons}/changes?syncToken=junk`, { key }), 400, 'invalid_cursor');
    const list = await server.request(`${cartons}?limit=1`, { key });
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const cursor = (await server.request(`${cartons}?limit=1`, { key })).body.nextCursor as string;
    expect(list.status).to.equal(200);
    expectError(await server.request(`${cartons}/changes?syncToken=${cursor}`, { key }), 400, 'invalid_cursor');
    const codec = createChangesCodec(createCursorCodec(TEST_CURSOR_SECRET));
    const scope = { brandId: brand.id, family: 'carton-sizes' };
    const old = codec.encodeToken(scope, { snapshot: '1:1:', madeAt: Date.now() - 31 * 86_400_000, mark: null });
    expectError(await server.request(`${cartons}/changes?syncToken=${old}`, { key }), 410, 'sync_token_expired');
    const recent = codec.encodeToken(scope, { snapshot: '1:1:', madeAt: Date.now() - 29 * 86_400_000, mark: null });
    expect((await server.request(`${cartons}/changes?syncToken=${recent}`, { key })).status).to.equal(200);
  });
});
