import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import knexModule, { type Knex } from 'knex';
import knexConfig from '../../../knexfile.ts';
import { DEFAULT_STATEMENTS_PER_CONNECTION, prepareStatements } from '../query/prepared-statements.ts';
import { prepareEmbeddedStatements } from '../query/embedded-statements.ts';
import { dropConnectionsThatTimeOut } from './silent-connections.ts';
import { createPostgresPool } from './postgres-pool.ts';

/** An open database: real Postgres, or the embedded PGlite. The same SQL runs on both. */
export interface Database {
  readonly db: Knex;
  readonly kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

/**
 * How long a request may wait on Postgres, chosen so that every request ends
 * within about 7 s even when Postgres stops answering altogether (frozen, or
 * an address black-holed by a failover), as CONTRACT.md §4 asks:
 * - `connectMs` (2 s): a new connection's TCP connect and start-up. A healthy
 *   Postgres on the same network does this in milliseconds.
 * - `acquireMs` (2 s): the wait for a pooled connection, a connect started for
 *   it included (pg-pool has one setting for both waits, so the two are
 *   equal). Past it the pool is exhausted or the database unreachable: a
 *   quick 503 sheds the load instead of queueing it.
 * - `statementMs` (4 s): the server-side limit of one statement that runs
 *   (a slow query, a lock wait); it ends as a logged 500. The engine's reads
 *   take milliseconds (docs/CAPACITY.md: a count of 100k rows about 18 ms).
 * - `queryMs` (5 s): the client-side limit, above `statementMs` so that a
 *   database that answers always ends a slow statement itself first. It fires
 *   only when nothing answers: a 503, and the connection is closed.
 * So a request on a database that does not answer waits at most
 * `acquireMs + queryMs` (7 s): its first query fails and ends it. A slow but
 * answering database bounds each statement at `statementMs`.
 */
export const POSTGRES_TIMEOUTS = Object.freeze({ acquireMs: 2_000, connectMs: 2_000, statementMs: 4_000, queryMs: 5_000 });

/**
 * Real Postgres at a URL, with a bounded pool and bounded waits. Statement
 * timeouts are for serving requests; migrations and tools may run longer.
 */
/** Where knex's own warnings go (a pool that lost its connection, say); by default knex prints them to the console. */
export interface DriverLog {
  warn(message: string): void;
  error(message: string): void;
}

export function openPostgres({ url, poolMax = 10, boundStatements = true, statementCache = DEFAULT_STATEMENTS_PER_CONNECTION, pooler = null, log }: {
  url: string;
  poolMax?: number;
  boundStatements?: boolean;
  /** 0: the engine's queries are not prepared. */
  statementCache?: number;
  /** `transaction`: `url` is a transaction-mode pooler; its connections carry no session state (sessionSettings). */
  pooler?: 'transaction' | null;
  log?: DriverLog;
}): Database {
  const text = (message: unknown): string => (message instanceof Error ? message.message : String(message));
  const pool = createPostgresPool({
    settings: {
      connectionString: url,
      // The pool's wait for a connection and each client's connect (pg passes the pool's settings to its clients).
      connectionTimeoutMillis: POSTGRES_TIMEOUTS.acquireMs,
      ...(boundStatements ? { query_timeout: POSTGRES_TIMEOUTS.queryMs } : {}),
      ...sessionSettings({ pooler, boundStatements }),
    },
    max: poolMax,
    // Through knex's logger, so the pool's warnings go wherever knex's own go (`log`, or knex's console default).
    log: { warn: (message) => (db.client as { logger: { warn(m: string): void } }).logger.warn(message) },
  });
  const db: Knex = knexModule.knex({
    ...knexConfig,
    ...(log ? { log: { warn: (m: unknown) => log.warn(text(m)), error: (m: unknown) => log.error(text(m)), deprecate: (m: unknown) => log.warn(text(m)), debug: () => {} } } : {}),
    connection: undefined,
    // One pool for knex and the engine's reads (postgres-pool.ts).
    connectionPool: pool,
  });
  prepareStatements(db, { perConnection: statementCache, pooled: pooler === 'transaction' });
  dropConnectionsThatTimeOut(db, pool);
  return {
    db,
    kind: 'postgres',
    close: async () => {
      await db.destroy();
      await pool.end();
    },
  };
}

/**
 * What a direct connection sets for its session at start-up: its name in
 * `pg_stat_activity` and, when serving, the server-side statement timeout.
 * Through a transaction pooler, none: the pooler hands the server connection
 * to other clients after each statement, so a startup parameter would either
 * be refused (PgBouncer refuses `statement_timeout`) or leak into them. There
 * the timeout belongs to the role (`alter role … set statement_timeout`,
 * docs/DEPLOYMENT.md, "Behind a transaction pooler"); the client-side `query_timeout` still bounds
 * every wait.
 */
function sessionSettings({ pooler, boundStatements }: { pooler: 'transaction' | null; boundStatements: boolean }): Record<string, unknown> {
  if (pooler === 'transaction') return {};
  return { application_name: 'brand-catalog-read-api', ...(boundStatements ? { statement_timeout: POSTGRES_TIMEOUTS.statementMs } : {}) };
}

/**
 * The embedded Postgres (PGlite, in-process), kept in `dir`, or in memory
 * when `dir` is null. It loads pg_trgm and btree_gin (the search indexes
 * `gin (brand_id, name gin_trgm_ops)` need both) so the same migrations run as
 * on Postgres. One connection, serialised queries: for a demo and tests.
 */
export async function openEmbedded({ dir, statementCache = DEFAULT_STATEMENTS_PER_CONNECTION }: {
  dir: string | null;
  /** Prepared statements the one connection keeps (embedded-statements.ts); 0: none, every query parsed and planned anew. */
  statementCache?: number;
}): Promise<Database> {
  // Loaded here, not at the top: PGlite and its extensions take about 90 MB, which a server on Postgres never needs.
  const [{ PGlite, protocol, parse }, { pg_trgm }, { btree_gin }, { default: ClientPgLite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('knex-pglite'),
  ]);
  if (dir) await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create({ ...(dir ? { dataDir: join(dir) } : {}), extensions: { pg_trgm, btree_gin } });
  if (statementCache > 0) prepareEmbeddedStatements(pglite, { protocol, parse }, { perConnection: statementCache });
  const db = knexModule.knex({
    client: ClientPgLite as unknown as typeof Knex.Client,
    dialect: 'postgres',
    connection: (() => ({ pglite })) as unknown as Knex.StaticConnectionConfig,
    migrations: knexConfig.migrations,
  });
  return { db, kind: 'embedded', close: () => db.destroy() };
}
