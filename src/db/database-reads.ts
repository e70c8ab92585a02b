import type { Knex } from 'knex';
import type { SqlFragment } from '../engine/compile/sql-fragment.ts';
import type { ReadSession, Reads, Row } from '../engine/read/reads.ts';
import type { ReadReplicas } from './connection/read-replicas.ts';
import { createExactCounts, type CountAnswerSource, type Probed } from './counts/exact-counts.ts';
import { queryRows } from './query/query-rows.ts';
import { createRowBatcher } from './query/row-batcher.ts';
import { boundedSnapshot } from '../engine/compile/snapshot-text.ts';

/** The snapshot a count or a probe says it ran in (compile/snapshot-text.ts), or null. */
const snapshotOf = (row: Row): string | null => (typeof row.snapshot === 'string' ? boundedSnapshot(row.snapshot) : null);

const probed = (row: Row): Probed => ({ changed: row.changed === true, snapshot: snapshotOf(row) });

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
 * statement costs nothing more than before. `onCountAnswer` hears where each
 * request's count came from (the metrics).
 */
export function createDatabaseReads(replicas: ReadReplicas, { trace, onCountAnswer }: { trace?: QueryTrace; onCountAnswer?: (from: CountAnswerSource) => void } = {}): Reads {
  const run: (db: Knex, query: SqlFragment) => Promise<Row[]> = trace ? (db, query) => trace(query, () => queryRows(db, query)) : queryRows;
  // One session per copy, made on its first read: a session holds nothing of a request (a get made its own,
  // about 1 KB). Its remembered counts and its batcher are the copy's: a batch runs on the copy its requests'
  // sessions were given.
  const sessions = new Map<Knex, ReadSession>();
  const sessionOn = (db: Knex): ReadSession => {
    let session = sessions.get(db);
    if (!session) {
      session = openSession(db);
      sessions.set(db, session);
    }
    return session;
  };
  const openSession = (db: Knex): ReadSession => {
    const batcher = createRowBatcher((query) => run(db, query));
    const counts = createExactCounts({ onAnswer: onCountAnswer });
    return {
      rows: (query) => batcher.rows(query),
      count: (key, plan) => counts.count(key, {
        async count() {
          const [row] = await run(db, plan.count);
          return { total: row!.total as number, snapshot: snapshotOf(row!) };
        },
        changedSince: async (snapshot) => probed((await run(db, plan.changedSince(snapshot)))[0]!),
      }),
      // Counts by value are remembered beside the totals, under keys of their own (read-counts.ts).
      counts: (key, plan) => counts.count<readonly Row[]>(key, {
        async count() {
          const rows = await run(db, plan.counts);
          return { total: Object.freeze(rows), snapshot: snapshotOf(rows[0]!) };
        },
        changedSince: async (snapshot) => probed((await run(db, plan.changedSince(snapshot)))[0]!),
      }),
      mark: () => replicas.mark(db),
    };
  };

  return {
    run: (read, options) => replicas.run((db) => read(sessionOn(db)), options),
  };
}
