import { BATCH_COLUMN } from '../../engine/compile/batch-by-row.ts';
import type { SqlFragment } from '../../engine/compile/sql-fragment.ts';
import type { Row } from '../../engine/read/reads.ts';

/**
 * Requests that arrive together share their statements: the same batchable
 * query (`SqlFragment.batch`: a get by id of one family, an include of one
 * family on one field) asked by several requests in one turn of the event
 * loop goes to Postgres as one statement.
 *
 * - The first such query of a turn runs at once, alone: a request that comes
 *   alone never waits (no timer, no hop).
 * - The others of the same turn are gathered until the turn's I/O callbacks
 *   are done (`setImmediate`, as the rate limit's counts are) and run as one
 *   statement; one of them alone runs as itself.
 * - Each row comes back tagged with its request (batch-by-row.ts), and the
 *   query ran for each request with that request's own values (its brand,
 *   its keys, its limit): rows are split per request, never per batch, in
 *   the order the statement gives them (an ordered query's batch orders them
 *   by their place in their request's answer).
 * - A failing statement fails the requests it carried, and only them.
 *
 * One batcher per copy of the data (database-reads.ts): a batch runs on the
 * copy its requests' sessions were given.
 */
export interface RowBatcher {
  rows(query: SqlFragment): Promise<Row[]>;
}

interface Waiting {
  readonly query: SqlFragment;
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}

export function createRowBatcher(run: (query: SqlFragment) => Promise<Row[]>): RowBatcher {
  /** Batch text → the queries gathered after the turn's first (which went at once). */
  let turn = new Map<string, Waiting[]>();
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    // The turn's map is handed over whole and a new one started: no copy of its values per flush.
    const gathered = turn;
    turn = new Map();
    for (const waiting of gathered.values()) if (waiting.length > 0) runTogether(waiting);
  }

  function runTogether(waiting: readonly Waiting[]): void {
    if (waiting.length === 1) {
      const [only] = waiting;
      run(only!.query).then(only!.resolve, only!.reject);
      return;
    }
    const first = waiting[0]!.query;
    // One array per binding, each request's value in its place, as it travels (an array as its literal: batch-by-row.ts).
    const travelling = waiting.map(({ query }) => query.batch!.travel?.(query.bindings) ?? query.bindings);
    const columns = first.bindings.map((_, k) => travelling.map((values) => values[k]));
    // The first query's other traits (whether to prepare, how it is labelled) go with the batch.
    run({ ...first, sql: first.batch!.sql, bindings: columns }).then(
      (rows) => {
        const answers = waiting.map((): Row[] => []);
        for (const row of rows) {
          // The columns the batch added stay on the row (a deleted property makes a slow object); records are made without them (query-parts.ts).
          answers[Number(row[BATCH_COLUMN]) - 1]?.push(row);
        }
        waiting.forEach((request, i) => request.resolve(answers[i]!));
      },
      (error: unknown) => {
        for (const request of waiting) request.reject(error);
      },
    );
  }

  return {
    rows(query) {
      const key = query.batch?.sql;
      if (key === undefined) return run(query);
      const waiting = turn.get(key);
      if (waiting === undefined) {
        turn.set(key, []);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
        return run(query);
      }
      return new Promise<Row[]>((resolve, reject) => waiting.push({ query, resolve, reject }));
    },
  };
}
