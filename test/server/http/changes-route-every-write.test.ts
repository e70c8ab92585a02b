import { expect } from 'chai';
import { expectError } from '../../resources/helpers.ts';
import { createBrand, createTestKey, insert, resetToBrand } from '../../support/fixtures.ts';
import { listedRecords, newCopy, syncBatch, type SyncCopy } from '../../support/sync-client.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

/**
 * The changes feed sees every write, however it arrives (CONTRACT.md §6): a
 * session with `session_replication_role = replica` (how a logical
 * replication subscription applies rows, and how bulk loaders skip
 * triggers), and a TRUNCATE, which cannot list what it removed and so
 * expires the tokens it makes stale (410).
 */
describe('GET /brands/{brand}/<path>/changes: writes of every kind', () => {
  let brand: { id: string; slug: string };
  let other: { id: string; slug: string };
  let key: string;
  const cartons = '/brands/acme/carton-sizes';

  const server = useServer();
  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
    other = await createBrand('globex');
  });

  const batch = (copy: SyncCopy, path = cartons, as = key) => syncBatch({ server, key: as, path, copy });
  /** The brand's cartons as the list route gives them, by id. */
  const listed = (path = cartons, as = key): Promise<Map<string, unknown>> => listedRecords({ server, key: as, path });
  /** Statements in one transaction of a replica session, as a subscription's apply or a bulk loader runs them. */
  async function asReplica(statements: readonly [string, unknown[]][]): Promise<void> {
    await (await testDatabase()).db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      for (const [sql, bindings] of statements) await trx.raw(sql, bindings as never[]);
    });
  }

  it('inserts, updates, brand moves and deletes made in a replica session come in the next batch', async () => {
    const [a, b, c] = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const copy = newCopy();
    await batch(copy);
    await asReplica([
      ['insert into carton_sizes (brand_id, name) values (?, ?)', [brand.id, 'D']],
      ['update carton_sizes set name = ? where id = ?', ['A2', a!.id]],
      ['update carton_sizes set brand_id = ? where id = ?', [other.id, b!.id]],
      ['delete from carton_sizes where id = ?', [c!.id]],
    ]);
    const seen = await batch(copy);
    expect(seen.changed.map((item) => item.change).sort()).to.deep.equal(['delete', 'delete', 'upsert', 'upsert']);
    expect(copy.records).to.deep.equal(await listed());
    expect([...copy.records.values()].map((record) => record.name).sort()).to.deep.equal(['A2', 'D']);
  });

  it('after a TRUNCATE a token older than it is 410 sync_token_expired; a full sync then equals the database', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const copy = newCopy();
    await batch(copy);
    const stale = copy.token!;
    await (await testDatabase()).db.raw('truncate carton_sizes cascade');
    await insert('carton-sizes', brand.id, [{ name: 'after' }]);
    expectError(await server.request(`${cartons}/changes?syncToken=${stale}`, { key }), 410, 'sync_token_expired');
    expectError(await server.request(`${cartons}/changes?syncToken=${stale}`, { key }), 410, 'sync_token_expired');
    const fresh = newCopy();
    await batch(fresh);
    expect(fresh.records).to.deep.equal(await listed());
    expect([...fresh.records.values()].map((record) => record.name)).to.deep.equal(['after']);
    // The new token is newer than the truncation: incremental again.
    await insert('carton-sizes', brand.id, [{ name: 'later' }]);
    expect((await batch(fresh)).changed.map((item) => item.record?.name)).to.deep.equal(['later']);
  });

  it('a TRUNCATE in a replica session expires the tokens of the brands whose rows it removed, not those of the others', async () => {
    await createBrand('initech');
    const { key: all } = await createTestKey({ brands: ['acme', 'globex', 'initech'] });
    await insert('carton-sizes', brand.id, [{ name: 'A' }]);
    await insert('carton-sizes', other.id, [{ name: 'G' }]);
    const paths = ['/brands/acme/carton-sizes', '/brands/globex/carton-sizes', '/brands/initech/carton-sizes'];
    const copies = paths.map(() => newCopy());
    for (const [i, path] of paths.entries()) await batch(copies[i]!, path, all);
    await asReplica([['truncate carton_sizes cascade', []]]);
    for (const [i, path] of paths.slice(0, 2).entries()) {
      expectError(await server.request(`${path}/changes?syncToken=${copies[i]!.token}`, { key: all }), 410, 'sync_token_expired');
    }
    // No row of that brand went: its copy is still right, and its token still good.
    expect((await batch(copies[2]!, paths[2], all)).items).to.deep.equal([]);
  });

  it('a remembered count is not served after a TRUNCATE, nor after rows written in a replica session', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
    const total = async (): Promise<number> => (await server.request(`${cartons}?limit=1`, { key })).body.totalItems as number;
    expect(await total()).to.equal(2);
    expect(await total()).to.equal(2);
    await asReplica([['insert into carton_sizes (brand_id, name) values (?, ?)', [brand.id, 'C']]]);
    expect(await total()).to.equal(3);
    await asReplica([['truncate carton_sizes cascade', []]]);
    expect(await total()).to.equal(0);
  });
});
