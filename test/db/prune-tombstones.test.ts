import { expect } from 'chai';
import { pruneTombstones } from '../../src/db/prune-tombstones.ts';
import { resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';

/** Plants tombstones of the given ages in days. */
async function plant(brandId: string, ages: readonly number[]): Promise<void> {
  const { db } = await testDatabase();
  for (const days of ages) {
    await db.raw(
      `insert into sync_tombstones (table_name, brand_id, row_id, deleted_at) values ('carton_sizes', ?, gen_random_uuid(), now() - make_interval(days => ?))`,
      [brandId, days],
    );
  }
}

describe('pruneTombstones', () => {
  it('deletes the tombstones older than the retention and keeps the others, returning the count', async () => {
    const { brand } = await resetToBrand();
    await plant(brand.id, [0, 1, 29, 31, 45, 400]);
    const { db } = await testDatabase();
    expect(await pruneTombstones({ db, retentionDays: 30 })).to.equal(3);
    const left = (await db.raw(`select count(*)::int as n from sync_tombstones`)).rows[0].n;
    expect(left).to.equal(3);
    expect(await pruneTombstones({ db, retentionDays: 30 })).to.equal(0);
    expect(await pruneTombstones({ db, retentionDays: 1 }), "1 and 29 days old").to.equal(2);
  });

  it('deletes the records of truncations older than the retention too', async () => {
    const { brand } = await resetToBrand();
    const { db } = await testDatabase();
    for (const days of [0, 29, 31]) {
      await db.raw(`insert into sync_truncations (table_name, brand_id, truncated_at) values ('carton_sizes', ?, now() - make_interval(days => ?))`, [brand.id, days]);
    }
    await pruneTombstones({ db, retentionDays: 30 });
    expect((await db.raw('select count(*)::int as n from sync_truncations')).rows[0].n).to.equal(2);
  });

  it('refuses a retention that is not a whole number of days', async () => {
    const { db } = await testDatabase();
    for (const days of [0, 1.5, -3]) {
      let failed = false;
      await pruneTombstones({ db, retentionDays: days }).catch(() => {
        failed = true;
      });
      expect(failed, String(days)).to.equal(true);
    }
  });
});
