import { expect } from 'chai';
import { compileChangesProbe } from '../../../src/engine/compile/changes-probe.ts';
import { probeChanges } from '../../../src/db/live/probe-changes.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** The live changes' probe (CONTRACT.md §7): per brand asked about, the newest version of a change to the family, on the run's database. */
describe('compileChangesProbe', function () {
  this.timeout(120_000);

  it('gives each brand the newest sync_xid of its rows and tombstones, null when it has none, and one statement for any number of brands', async () => {
    const { db, registry } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const quiet = await createBrand();
    const probe = compileChangesProbe(registry.get('carton-sizes'));
    expect(probe.probe([brand.id]).sql).to.equal(probe.probe([brand.id, quiet.id]).sql);
    const [row] = await insert('carton-sizes', brand.id, [{ name: 'a' }]);
    const first = await probeChanges({ db, probe, brandIds: [brand.id, quiet.id], withMark: false });
    const written = BigInt(((await db.raw('select sync_xid::text as x from carton_sizes where id = ?', [row!.id])) as { rows: { x: string }[] }).rows[0]!.x);
    expect(first.versions.get(brand.id)).to.equal(written);
    expect(first.versions.get(quiet.id)).to.equal(null);
    await db.raw('delete from carton_sizes where id = ?', [row!.id]);
    const second = await probeChanges({ db, probe, brandIds: [brand.id], withMark: false });
    expect(second.versions.get(brand.id)! > written, 'the tombstone is newer').to.equal(true);
  });
});
