import type { Knex } from 'knex';
import { isReadTimeout } from './connection-failure.ts';

/** What knex's Postgres client keeps on a pg connection: its id, the mark that makes its pool drop it, and pg's socket. */
interface PooledConnection {
  __knexUid?: string;
  __knex__disposed?: unknown;
  connection?: { stream?: { destroy(): void } };
}

/**
 * A connection whose query passed pg's client-side timeout still waits for
 * that answer, and every later query on it would queue behind it: on a
 * database that stopped answering (frozen, or an address black-holed by a
 * failover) it would never serve again, and TCP would take minutes to notice.
 * So it is closed and marked as knex marks a broken one: the pool drops it
 * instead of lending it out again.
 */
export function discardConnection(connection: object): void {
  const held = connection as PooledConnection;
  held.__knex__disposed = 'Query read timeout';
  held.connection?.stream?.destroy();
}

/** The pool's lent-out connections (tarn's `used`). */
interface LendingPool {
  used?: { resource: PooledConnection }[];
}

/**
 * Discards the connection of any knex query (a key lookup, a probe) that
 * passed the client-side timeout. knex reports a failed query, with its
 * connection's id, before the connection goes back to the pool. The engine's
 * own queries bypass knex's runner and discard theirs in query-rows.ts.
 */
export function dropConnectionsThatTimeOut(db: Knex): void {
  db.on('query-error', (error: unknown, query: { __knexUid?: string } | undefined) => {
    if (!isReadTimeout(error) || !query?.__knexUid) return;
    const pool = (db.client as { pool?: LendingPool }).pool;
    const held = pool?.used?.find((used) => used.resource.__knexUid === query.__knexUid)?.resource;
    if (held) discardConnection(held);
  });
}
