import type { Knex } from 'knex';
import { TOMBSTONE_TABLE, TRUNCATION_TABLE } from '../engine/compile/plan-sync.ts';

/** Rows one statement deletes: a long-unpruned table is emptied in steps, never in one long transaction. */
const BATCH = 10_000;

/**
 * Deletes the changes feed's tombstones older than the retention
 * (CONTRACT.md §6): a sync token that old is refused (410), so no batch
 * needs them. Returns how many went.
 *
 * `deleted_at` is the deleting transaction's start: a transaction that ran
 * longer than the retention before it committed has its tombstone pruned
 * early; at 30 days that is not a transaction anyone runs.
 *
 * The records of truncations go by the same rule (a token older than the
 * retention is refused anyway); there are few, and one statement takes them.
 * The count returned is of tombstones.
 */
export async function pruneTombstones({ db, retentionDays }: { db: Knex; retentionDays: number }): Promise<number> {
  if (!Number.isInteger(retentionDays) || retentionDays < 1) throw new Error(`retentionDays must be a whole number of days, not ${retentionDays}`);
  await db.raw(`delete from "${TRUNCATION_TABLE}" where "truncated_at" < now() - make_interval(days => ?)`, [retentionDays]);
  let total = 0;
  for (;;) {
    const result = (await db.raw(
      `delete from "${TOMBSTONE_TABLE}" where ctid = any(array(select ctid from "${TOMBSTONE_TABLE}"
         where "deleted_at" < now() - make_interval(days => ?) limit ?))`,
      [retentionDays, BATCH],
    )) as { rowCount: number | null };
    const count = Number(result.rowCount ?? 0);
    total += count;
    if (count < BATCH) return total;
  }
}
