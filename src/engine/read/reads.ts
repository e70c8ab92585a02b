import type { SqlFragment } from '../compile/sql-fragment.ts';
import type { CountPlan } from '../compile/compile-queries.ts';
import type { CountsPlan } from '../compile/counts-query.ts';

/** One row as the database returns it, keyed by the API's field names. */
export type Row = Record<string, unknown>;

/**
 * The engine's one door to the database: it hands over compiled plans and
 * gets rows back, and knows nothing of drivers or pools. `src/db` opens it
 * (`createDatabaseReads`); a test can open it over anything that answers
 * plans (a fake returning fixed rows), with no database at all.
 *
 * Every query of one request (page, count, includes) runs in one
 * `ReadSession`, on one copy of the data, so a response is read from one
 * consistent copy; the database layer decides which (it spreads sessions
 * over read replicas).
 *
 * With several copies, a cursor walk keeps in step: its first page takes a
 * `mark` of the copy it was read from, and every later page runs with
 * `after: mark`, on a copy at least that new. So a walk never misses a
 * record its first page's copy had, whichever copies serve its pages.
 */
export interface Reads {
  run<T>(read: (session: ReadSession) => Promise<T>, options?: { readonly after?: string | null }): Promise<T>;
}

export interface ReadSession {
  /** The rows of a compiled query. */
  rows(query: SqlFragment): Promise<Row[]>;
  /**
   * The `total` of a compiled count, exact as of this call. Counts of the
   * same `key` (a family, a brand and its filters) may share a run or be
   * remembered while the plan's probe finds nothing changed
   * (`src/db/counts/exact-counts.ts`).
   */
  count(key: string, plan: CountPlan): Promise<number>;
  /**
   * The rows of a compiled counts by value, exact as of this call, remembered
   * as counts are (`count`); the same rows may be handed to several calls:
   * read them, never change them.
   */
  counts(key: string, plan: CountsPlan): Promise<readonly Row[]>;
  /** How new the data of this session's copy is now; null when there is only one copy (nothing to keep in step). */
  mark(): Promise<string | null>;
}
