import { expect } from 'chai';
import { parseSnapshot, type Snapshot } from '../../../src/engine/compile/snapshot-text.ts';
import { compileChangesProbe } from '../../../src/engine/compile/changes-probe.ts';
import { createChangeWatcher } from '../../../src/server/live/change-watcher.ts';
import { createBrand, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { waitFor } from '../../support/wait-for.ts';
import { writtenBy } from '../../support/written-by.ts';

/**
 * The live changes' watcher on the database (CONTRACT.md §7): a waiter whose
 * token saw a transaction in progress is woken when that transaction
 * committed a change of its brand, and not when it wrote only another
 * brand's rows, or rolled back. Transaction ids are the cluster's, so a
 * token on a busy server nearly always lists some: were their ends news, a
 * follower would be woken for an empty read at the pace of every write.
 *
 * The tokens here are made by hand around a transaction run to its end (its
 * id in progress, everything before it seen), so the test holds on the
 * embedded database, which has one connection, as on Postgres.
 */
describe('change watcher: which ends of transactions in progress wake a waiter', function () {
  this.timeout(60_000);

  /** A waiter on `brandId` with a token that saw everything up to `id` but `id`, in progress; resolves whether a probe woke it. */
  async function wakes(brandId: string, id: bigint): Promise<boolean> {
    const { db, registry } = await testDatabase();
    const since: Snapshot = parseSnapshot(`${id}:${id + 1n}:${id}`)!;
    const errors: Error[] = [];
    const watcher = createChangeWatcher({ db, probe: compileChangesProbe(registry.get('carton-sizes')), intervalMs: 1, withMark: false, onError: (error) => errors.push(error) });
    let woken = false;
    try {
      const stop = watcher.add({ brandId, since, seen: new Set(), wake: () => { woken = true; } });
      // Two probes at least: the first asks about the id, which may leave it cleared; a second must not wake either.
      const first = await waitFor(async () => watcher.knowledge(brandId) ?? undefined, { intervalMs: 5 });
      await waitFor(async () => woken || watcher.knowledge(brandId) !== first, { intervalMs: 5 });
      stop();
      expect(errors).to.deep.equal([]);
      return woken;
    } finally {
      watcher.close();
    }
  }

  it('wakes for a committed insert, update or delete of the brand; not for another brand\'s rows or a rollback', async () => {
    const { brand } = await resetToBrand('acme');
    const other = await createBrand('globex');
    const insert = 'insert into carton_sizes (brand_id, name) values (?, ?)';
    expect(await wakes(brand.id, await writtenBy(insert, [brand.id, 'a'])), 'insert').to.equal(true);
    expect(await wakes(brand.id, await writtenBy('update carton_sizes set name = ? where brand_id = ?', ['b', brand.id])), 'update').to.equal(true);
    expect(await wakes(brand.id, await writtenBy('delete from carton_sizes where brand_id = ?', [brand.id])), 'delete').to.equal(true);
    expect(await wakes(brand.id, await writtenBy(insert, [other.id, 'c'])), 'another brand').to.equal(false);
    expect(await wakes(brand.id, await writtenBy(insert, [brand.id, 'd'], { rollback: true })), 'rolled back').to.equal(false);
    expect(await wakes(other.id, await writtenBy(insert, [other.id, 'e'])), 'the other brand\'s own write').to.equal(true);
  });
});
