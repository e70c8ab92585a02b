import type { Knex } from 'knex';
import { migrations } from '../../../knexfile.ts';
import { pendingMigrations } from '../schema/migrate-to-latest.ts';
import { POSTGRES_TIMEOUTS } from './open-database.ts';
import { isConnectTimeout } from './connection-failure.ts';

/** Where the waits are logged: one line per failed attempt, one when the database is ready. */
export interface ReadinessLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** Whether the database can be served yet, and when the next attempt is. */
export interface SchemaReadiness {
  /** True once the schema has been read and found current; it stays true. */
  ready(): boolean;
  /** Settles when the database is ready (never if it is stopped first). */
  readonly whenReady: Promise<void>;
  /** Whole seconds until the next attempt, at least 1: the `Retry-After` of a 503 meanwhile. */
  retryAfterSeconds(): number;
  /** Stops trying (the server is stopping). */
  stop(): void;
}

/** The wait after the first failed attempt, doubled after each failure up to the cap. */
export const READINESS_BACKOFF = Object.freeze({ firstMs: 500, maxMs: 5_000 });

/** Ready from the start: the embedded database, migrated before the server listens. */
export const ALWAYS_READY: SchemaReadiness = Object.freeze({
  ready: () => true,
  whenReady: Promise.resolve(),
  retryAfterSeconds: () => 1,
  stop: () => {},
});

/**
 * Reads the schema of the database at DATABASE_URL until it can be served:
 * Postgres answers, the database exists and no migration is pending. The
 * server listens meanwhile (it answers 503), since in a compose file or a
 * cluster the API, Postgres and the migrations start together and the API
 * must not depend on winning that race. Each failed attempt is logged in one
 * line with its reason and the wait before the next (capped exponential
 * back-off, READINESS_BACKOFF); whatever the failure (refused, silent,
 * unknown database, schema out of date), the next attempt may succeed.
 */
export function waitForSchema({ db, log, backoff = READINESS_BACKOFF }: {
  db: Knex;
  log: ReadinessLog;
  backoff?: { readonly firstMs: number; readonly maxMs: number };
}): SchemaReadiness {
  let isReady = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let nextAttemptAt = Date.now();
  let markReady = (): void => {};
  const whenReady = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const attempt = async (number: number, delayMs: number): Promise<void> => {
    const problem = await schemaProblem(db);
    if (stopped) return;
    if (problem === null) {
      isReady = true;
      log.info({ attempt: number }, 'database ready: schema read and current, serving');
      markReady();
      return;
    }
    nextAttemptAt = Date.now() + delayMs;
    log.warn({ attempt: number, retryInMs: delayMs }, `database not ready: ${problem}; trying again in ${delayMs / 1000} s`);
    timer = setTimeout(() => {
      timer = null;
      void attempt(number + 1, Math.min(delayMs * 2, backoff.maxMs));
    }, delayMs);
    timer.unref();
  };
  void attempt(1, backoff.firstMs);

  return {
    ready: () => isReady,
    whenReady,
    retryAfterSeconds: () => Math.max(1, Math.ceil((nextAttemptAt - Date.now()) / 1000)),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** Why the database cannot be served now, or null when it can. */
async function schemaProblem(db: Knex): Promise<string | null> {
  try {
    // Listing the migrations would create knex's tables: that is for `db:migrate`, which may be running now.
    if (!(await db.schema.hasTable(migrations.tableName!))) return 'the database has no schema yet: run `npm run db:migrate`';
    const pending = await pendingMigrations(db);
    if (pending.length === 0) return null;
    return `the schema is out of date (${pending.length} pending migrations): run \`npm run db:migrate\``;
  } catch (error) {
    // The pool says "timeout exceeded when trying to connect", which reads like a full pool here.
    if (isConnectTimeout(error)) return `Postgres did not answer: timed out after ${POSTGRES_TIMEOUTS.connectMs / 1000} s`;
    return `cannot read the schema: ${(error as Error).message}`;
  }
}
