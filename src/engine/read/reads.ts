import type { Knex } from 'knex';

/**
 * Where a request's reads run. Every query of one request (page, count,
 * includes) runs on the one database `run` hands over, so a response is
 * read from one consistent copy of the data; the server decides which
 * (`src/db/connection/read-replicas.ts` spreads them over replicas).
 *
 * With several copies, a cursor walk keeps in step: its first page takes a
 * `mark` of the copy it was read from, and every later page runs with
 * `after: mark`, on a copy at least that new. So a walk never misses a
 * record its first page's copy had, whichever copies serve its pages.
 */
export interface Reads {
  run<T>(read: (db: Knex) => Promise<T>, options?: { readonly after?: string | null }): Promise<T>;
  /** How new the data `db` serves is now; null when there is only one copy (nothing to keep in step). */
  mark(db: Knex): Promise<string | null>;
}

