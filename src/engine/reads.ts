import type { Knex } from 'knex';

/**
 * Where a request's reads run. Every query of one request (page, count,
 * includes) runs on the one database `run` hands over, so a response is
 * read from one consistent copy of the data; the server decides which
 * (`src/db/read-replicas.ts` spreads them over replicas).
 */
export interface Reads {
  run<T>(read: (db: Knex) => Promise<T>): Promise<T>;
}

/** Every read on one database. */
export function readsOn(db: Knex): Reads {
  return { run: (read) => read(db) };
}
