import { expect } from 'chai';
import { runPruneCommand } from '../../../tools/prune/prune-command.ts';
import { resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

/** `npm run db:prune-tombstones` in process (tools/prune-tombstones.ts is the process around it), on the run's database. */
describe('the prune-tombstones command (tools/prune/prune-command.ts)', () => {
  it('prunes with the retention of SYNC_RETENTION_DAYS and says how many went', async () => {
    const { brand } = await resetToBrand();
    const { db } = await testDatabase();
    for (const days of [1, 8, 400]) {
      await db.raw(
        `insert into sync_tombstones (table_name, brand_id, row_id, deleted_at) values ('carton_sizes', ?, gen_random_uuid(), now() - make_interval(days => ?))`,
        [brand.id, days],
      );
    }
    const said: string[] = [];
    expect(await runPruneCommand({ db, env: { SYNC_RETENTION_DAYS: '7' }, out: (text) => said.push(text) })).to.equal(0);
    expect(said).to.deep.equal(['Pruned 2 tombstones older than 7 days.\n']);
    expect(await runPruneCommand({ db, env: {}, out: (text) => said.push(text) })).to.equal(0);
    expect(said[1], 'the default retention').to.equal('Pruned 0 tombstones older than 30 days.\n');
    expect((await db.raw('select count(*)::int as n from sync_tombstones')).rows[0].n).to.equal(1);
  });

  it('refuses a bad setting with its reason, deleting nothing', async () => {
    const { brand } = await resetToBrand();
    const { db } = await testDatabase();
    await db.raw(`insert into sync_tombstones (table_name, brand_id, row_id, deleted_at) values ('carton_sizes', ?, gen_random_uuid(), now() - interval '90 days')`, [brand.id]);
    const said: string[] = [];
    for (const value of ['0', 'week']) {
      const failed = await runPruneCommand({ db, env: { SYNC_RETENTION_DAYS: value }, out: (text) => said.push(text) }).then(() => null, (error: Error) => error);
      expect(failed?.message, value).to.match(/SYNC_RETENTION_DAYS/);
    }
    expect(said).to.deep.equal([]);
    expect((await db.raw('select count(*)::int as n from sync_tombstones')).rows[0].n).to.equal(1);
  });
});
