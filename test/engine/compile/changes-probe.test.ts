import { expect } from 'chai';
import { compileChangesProbe } from '../../../src/engine/compile/changes-probe.ts';
import { probeChanges } from '../../../src/db/live/probe-changes.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { writtenBy } from '../../support/written-by.ts';

/** The live changes' probe (CONTRACT.md §7): per brand asked about, the newest version of a change to the family, on the run's database. */
describe('compileChangesProbe', function () {
  this.timeout(120_000);

  it('gives each brand the newest sync_xid of its rows and tombstones, null when it has none, and one statement for any number of brands', async () => {
    const { db, registry } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const quiet = await createBrand();
    const probe = compileChangesProbe(registry.get('carton-sizes'));
    expect(probe.probe({ brandIds: [brand.id], since: 0n }).sql).to.equal(probe.probe({ brandIds: [brand.id, quiet.id], since: 5n, running: new Map([[quiet.id, [7n, 9n]]]) }).sql);
    const [row] = await insert('carton-sizes', brand.id, [{ name: 'a' }]);
    const first = await probeChanges({ db, probe, brandIds: [brand.id, quiet.id], since: 0n, withMark: false });
    const written = BigInt(((await db.raw('select sync_xid::text as x from carton_sizes where id = ?', [row!.id])) as { rows: { x: string }[] }).rows[0]!.x);
    expect(first.versions.get(brand.id)).to.equal(written);
    expect(first.versions.get(quiet.id)).to.equal(null);
    await db.raw('delete from carton_sizes where id = ?', [row!.id]);
    const second = await probeChanges({ db, probe, brandIds: [brand.id], since: 0n, withMark: false });
    expect(second.versions.get(brand.id)! > written, 'the tombstone is newer').to.equal(true);
    expect(second.truncations.get(brand.id), 'no TRUNCATE yet').to.deep.equal([]);
  });

  it('names, of the running ids asked about per brand, those that committed a write or a TRUNCATE of the brand: not another brand\'s, a rollback, nor ids not asked', async () => {
    const { db, registry } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const other = await createBrand();
    const probe = compileChangesProbe(registry.get('carton-sizes'));
    const insertFor = 'insert into carton_sizes (brand_id, name) values (?, ?)';
    const ours = await writtenBy(insertFor, [brand.id, 'x']);
    const theirs = await writtenBy(insertFor, [other.id, 'x']);
    const undone = await writtenBy(insertFor, [brand.id, 'undone'], { rollback: true });
    // A delete is stamped on its tombstone.
    const [row] = await insert('carton-sizes', brand.id, [{ name: 'gone' }]);
    const deleted = await writtenBy('delete from carton_sizes where id = ?', [row!.id]);
    const asked = [ours, theirs, undone, deleted];
    const result = await probeChanges({ db, probe, brandIds: [brand.id, other.id], since: 0n, running: new Map([[brand.id, asked], [other.id, asked]]), withMark: false });
    expect([...result.stamped.get(brand.id)!]).to.have.members([ours, deleted]);
    expect([...result.stamped.get(other.id)!]).to.have.members([theirs]);
    const none = await probeChanges({ db, probe, brandIds: [brand.id], since: 0n, withMark: false });
    expect([...none.stamped.get(brand.id)!], 'nothing asked').to.deep.equal([]);
    // A TRUNCATE stamps no row: its record stands for it, for every brand whose rows it removed.
    const truncated = await writtenBy('truncate carton_sizes cascade');
    const after = await probeChanges({ db, probe, brandIds: [brand.id, other.id], since: 0n, running: new Map([[brand.id, [truncated]], [other.id, [truncated]]]), withMark: false });
    expect([...after.stamped.get(brand.id)!]).to.deep.equal([truncated]);
    expect([...after.stamped.get(other.id)!]).to.deep.equal([truncated]);
  });

  it('lists the TRUNCATEs of the family\'s table at or above the oldest token asked about, per brand', async () => {
    const { db, registry } = await testDatabase();
    const { brand } = await resetToBrand('acme');
    const probe = compileChangesProbe(registry.get('carton-sizes'));
    await insert('carton-sizes', brand.id, [{ name: 'a' }]);
    const before = await probeChanges({ db, probe, brandIds: [brand.id], since: 0n, withMark: false });
    await db.raw('truncate carton_sizes cascade');
    const recorded = ((await db.raw(`select distinct sync_xid::text as x from sync_truncations where table_name = 'carton_sizes' and (brand_id = ? or brand_id is null)`, [brand.id])) as { rows: { x: string }[] }).rows.map((r) => BigInt(r.x));
    expect(recorded.length).to.be.at.least(1);
    const after = await probeChanges({ db, probe, brandIds: [brand.id], since: before.snapshot.xmin, withMark: false });
    expect(after.truncations.get(brand.id)).to.include.members(recorded.filter((x) => x >= before.snapshot.xmin));
    expect(after.truncations.get(brand.id)!.length, 'the truncation made after the first probe').to.be.at.least(1);
    const later = await probeChanges({ db, probe, brandIds: [brand.id], since: after.truncations.get(brand.id)!.at(-1)! + 1n, withMark: false });
    expect(later.truncations.get(brand.id), 'none above a newer token').to.deep.equal([]);
  });
});
