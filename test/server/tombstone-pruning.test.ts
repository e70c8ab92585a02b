import { expect } from 'chai';
import { startTombstonePruning } from '../../src/server/tombstone-pruning.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { waitFor } from '../support/wait-for.ts';

describe('startTombstonePruning', () => {
  it('prunes on its timer, logs what it pruned, and stops', async () => {
    const { brand } = await resetToBrand();
    const { db } = await testDatabase();
    await db.raw(`insert into sync_tombstones (table_name, brand_id, row_id, deleted_at) values ('carton_sizes', ?, gen_random_uuid(), now() - interval '40 days')`, [brand.id]);
    const { logger, lines } = collectingLogger();
    const stop = startTombstonePruning({ db, retentionDays: 30, logger, everyMs: 20 });
    try {
      await waitFor(async () => lines.some((line) => line.msg === 'pruned changes-feed tombstones' && line.pruned === 1));
      expect((await db.raw('select count(*)::int as n from sync_tombstones')).rows[0].n).to.equal(0);
    } finally {
      stop();
    }
  });
});
