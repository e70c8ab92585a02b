import type { Knex } from 'knex';
import type { ReadSession, Reads } from '../engine/read/reads.ts';
import type { SqlFragment } from '../engine/compile/sql-fragment.ts';
import type { ReadReplicas } from './connection/read-replicas.ts';
import { createExactCounts, type ExactCounts } from './counts/exact-counts.ts';
import { queryRows } from './query/query-rows.ts';

/** The snapshot a statement sees now: `ExactCounts` compares it with the one a count saw. */
const CURRENT_SNAPSHOT: SqlFragment = { sql: 'select pg_current_snapshot()::text as "snapshot"', bindings: [] };

/**
 * Opens the engine's port (`Reads`) on the database: each session runs on
 * the copy the replicas pick for it (the primary alone without replicas).
 *
 * Remembered counts belong to a copy of the data: each copy gets its own,
 * made here with the reader, so a total never comes from another copy than
 * its page, and a request moved off a failed replica never waits on that
 * replica's count.
 */
export function createDatabaseReads(replicas: ReadReplicas): Reads {
  const countsByCopy = new Map<Knex, ExactCounts>();
  const countsOf = (db: Knex): ExactCounts => {
    let counts = countsByCopy.get(db);
    if (!counts) {
      counts = createExactCounts();
      countsByCopy.set(db, counts);
    }
    return counts;
  };

  const sessionOn = (db: Knex): ReadSession => ({
    rows: (query) => queryRows(db, query),
    count: (key, query) => countsOf(db).count(key, {
      async count() {
        const [row] = await queryRows(db, query);
        return { total: row!.total as number, snapshot: (row!.snapshot as string | undefined) ?? null };
      },
      async snapshot() {
        return (await queryRows(db, CURRENT_SNAPSHOT))[0]!.snapshot as string;
      },
    }),
    mark: () => replicas.mark(db),
  });

  return {
    run: (read, options) => replicas.run((db) => read(sessionOn(db)), options),
  };
}
