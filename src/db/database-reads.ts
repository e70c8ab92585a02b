import type { Knex } from 'knex';
import type { SqlFragment } from '../engine/compile/sql-fragment.ts';
import type { ReadSession, Reads, Row } from '../engine/read/reads.ts';
import type { ReadReplicas } from './connection/read-replicas.ts';
import { createExactCounts, type ExactCounts } from './counts/exact-counts.ts';
import { queryRows } from './query/query-rows.ts';
import { createRowBatcher, type RowBatcher } from './query/row-batcher.ts';
import { boundedSnapshot } from '../engine/compile/snapshot-text.ts';

/** Runs one statement inside whatever watches it (a trace span, `src/server/tracing/`); `run` runs the statement. */
export type QueryTrace = (plan: SqlFragment, run: () => Promise<Row[]>) => Promise<Row[]>;

/**
 * Opens the engine's port (`Reads`) on the database: each session runs on
 * the copy the replicas pick for it (the primary alone without replicas).
 *
 * Gets of one family, and includes of one family on one field, arriving
 * together share one statement (row-batcher.ts).
 *
 * Remembered counts belong to a copy of the data: each copy gets its own,
 * made here with the reader, so a total never comes from another copy than
 * its page, and a request moved off a failed replica never waits on that
 * replica's count.
 *
 * With `trace` (tracing on), each statement runs inside it; without, a
 * statement costs nothing more than before.
 */
export function createDatabaseReads(replicas: ReadReplicas, { trace }: { trace?: QueryTrace } = {}): Reads {
  const run: (db: Knex, query: SqlFragment) => Promise<Row[]> = trace ? (db, query) => trace(query, () => queryRows(db, query)) : queryRows;
  const countsByCopy = new Map<Knex, ExactCounts>();
  const countsOf = (db: Knex): ExactCounts => {
    let counts = countsByCopy.get(db);
    if (!counts) {
      counts = createExactCounts();
      countsByCopy.set(db, counts);
    }
    return counts;
  };

  // A batch runs on one copy: its requests' sessions were all given that copy.
  const batchers = new Map<Knex, RowBatcher>();
  const batcherOf = (db: Knex): RowBatcher => {
    let batcher = batchers.get(db);
    if (!batcher) {
      batcher = createRowBatcher((query) => run(db, query));
      batchers.set(db, batcher);
    }
    return batcher;
  };

  const sessionOn = (db: Knex): ReadSession => ({
    rows: (query) => batcherOf(db).rows(query),
    count: (key, plan) => countsOf(db).count(key, {
      async count() {
        const [row] = await run(db, plan.count);
        return { total: row!.total as number, snapshot: typeof row!.snapshot === 'string' ? boundedSnapshot(row!.snapshot) : null };
      },
      async changedSince(snapshot) {
        return (await run(db, plan.changedSince(snapshot)))[0]!.changed === true;
      },
    }),
    mark: () => replicas.mark(db),
  });

  return {
    run: (read, options) => replicas.run((db) => read(sessionOn(db)), options),
  };
}
