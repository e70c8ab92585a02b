import type { Knex } from 'knex';

/** The key cache's refresh statement (find-grants.ts) reads api_keys too: it is told apart by its unnest. */
const isRefresh = (sql: string): boolean => sql.includes('with ordinality');

/** How many key lookups `body` sent to the database (the query that reads `api_keys`, a refresh round's not counted). */
export async function keyLookups(db: Knex, body: () => Promise<void>): Promise<number> {
  let lookups = 0;
  const listen = (query: { sql: string }): void => {
    if (query.sql.includes('from api_keys k') && !isRefresh(query.sql)) lookups += 1;
  };
  db.on('query', listen);
  try {
    await body();
  } finally {
    db.off('query', listen);
  }
  return lookups;
}

/** A database for the key cache's refresh rounds that counts their statements, and can fail them or hold their answers back. */
export interface RefreshSpy {
  readonly db: Knex;
  /** Refresh statements sent (or failed, while `failure` is set). */
  readonly sent: number;
  /** Refresh statements answered; what a round stores, it has stored one turn (`tick`) later. */
  readonly answered: number;
  /** How many pairs each statement sent asked about. */
  readonly pairs: readonly number[];
  /** While set, every refresh statement fails with it at once (the database is away). */
  failure: Error | null;
  /** Holds back the next answers until the function returned is called. */
  hold(): () => void;
}

export function refreshSpy(db: Knex): RefreshSpy {
  let held: Promise<void> = Promise.resolve();
  const spy = {
    db: undefined as unknown as Knex,
    sent: 0,
    answered: 0,
    pairs: [] as number[],
    failure: null as Error | null,
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
  const raw = async (sql: string, bindings: readonly unknown[][]): Promise<unknown> => {
    spy.sent += 1;
    spy.pairs.push(bindings[0]!.length);
    if (spy.failure) throw spy.failure;
    const answer: unknown = await db.raw(sql, bindings as Knex.RawBinding[]);
    await held;
    spy.answered += 1;
    return answer;
  };
  spy.db = new Proxy(db, { get: (target, name) => (name === 'raw' ? raw : Reflect.get(target, name)) });
  return spy;
}
