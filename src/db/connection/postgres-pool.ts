import type { Knex } from 'knex';
import pg from 'pg';

/** Where the pool's own warnings go (a connection lost while idle, one dropped after a read timeout). */
export interface PoolLog {
  warn(message: string): void;
}

/** What the pool knows of a connection it drops: why, when the service decided it (silent-connections.ts). */
interface Droppable {
  __knex__disposed?: unknown;
}

/**
 * The one pool of Postgres connections of a database handle: knex borrows
 * from it (`connectionPool`: key lookups, probes, migrations), and the
 * engine's reads borrow from it directly (query-rows.ts), so
 * `DATABASE_POOL_MAX` bounds both at once.
 *
 * Why `pg.Pool` and not knex's own (tarn): on the read path, tarn's acquire
 * and knex's wrapping of it made the server promote about 1.6 MB per
 * scavenge into V8's old generation, 30 to 40 full collections in 6 s of a
 * small-page load against the bare floor's 3 to 4 (docs/PERFORMANCE.md).
 *
 * `connectionTimeoutMillis` is both the wait for a free connection and a new
 * connection's connect and start-up (pg passes it to each client): past it
 * the pool is exhausted or the database does not answer, and the request
 * gets a quick 503 (connection-failure.ts knows pg-pool's words for it).
 */
export function createPostgresPool({ settings, max, log }: {
  /** pg's client settings: URL, timeouts, start-up parameters. */
  settings: pg.ClientConfig;
  max: number;
  log: PoolLog;
}): pg.Pool {
  const warn = (message: string): void => log.warn(message);
  const pool = new pg.Pool({ ...settings, max, min: 0, idleTimeoutMillis: 30_000 });
  pool.on('connect', (client) => {
    // pg-pool listens for a connection's errors only while it is idle; a lent one that breaks (a restart, a
    // reset) must not throw as an unhandled 'error': pg fails its query, marks it unusable, and the pool drops it
    // when it comes back.
    client.on('error', () => {});
  });
  // An idle connection that broke (Postgres restarted, a failover): the pool has dropped it already.
  pool.on('error', (error) => warn(`Connection Error: ${error.message}`));
  pool.on('remove', (client) => {
    const why = (client as Droppable).__knex__disposed;
    if (why !== undefined) warn(`Connection Error: ${String(why)}`);
  });
  return pool;
}

/** The pg pool knex borrows from, or null (the embedded database, whose knex client keeps its one connection). */
export function postgresPool(db: Knex): pg.Pool | null {
  const pool = (db.client as { config?: { connectionPool?: unknown } }).config?.connectionPool;
  return pool instanceof pg.Pool ? pool : null;
}

/** knex's own pool (tarn), which the embedded database's client keeps for its one connection. */
interface KnexOwnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** A database handle's connections by state, for `/metrics`: its pg pool's, or knex's own pool's (the embedded database). */
export function poolUsage(db: Knex): { used: number; free: number; pending: number } | null {
  const pool = postgresPool(db);
  if (pool !== null) return { used: pool.totalCount - pool.idleCount, free: pool.idleCount, pending: pool.waitingCount };
  const own = (db.client as { pool?: KnexOwnPool }).pool;
  return own ? { used: own.numUsed(), free: own.numFree(), pending: own.numPendingAcquires() } : null;
}
