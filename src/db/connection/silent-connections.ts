import type { Knex } from 'knex';
import type pg from 'pg';
import { isReadTimeout } from './connection-failure.ts';

/** What the service and knex keep on a pg connection: knex's id for it, the mark that makes the pool drop it, and pg's socket. */
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
 * So it is closed and marked: knex releases a marked connection as broken,
 * pg-pool drops a closed one instead of lending it out again, and the pool
 * logs why (postgres-pool.ts).
 */
export function discardConnection(connection: object): void {
  const held = connection as PooledConnection;
  held.__knex__disposed = 'Query read timeout';
  held.connection?.stream?.destroy();
}

/**
 * Discards the connection of any knex query (a key lookup, a probe) that
 * passed the client-side timeout. knex reports a failed query, with its
 * connection's id, before the connection goes back to the pool, so the
 * connections lent out are followed here. The engine's own queries borrow
 * from the pool directly and discard theirs in query-rows.ts.
 */
export function dropConnectionsThatTimeOut(db: Knex, pool: pg.Pool): void {
  const lent = new Set<PooledConnection>();
  pool.on('acquire', (client) => lent.add(client as PooledConnection));
  pool.on('release', (_error, client) => lent.delete(client as PooledConnection));
  db.on('query-error', (error: unknown, query: { __knexUid?: string } | undefined) => {
    if (!isReadTimeout(error) || !query?.__knexUid) return;
    for (const held of lent) if (held.__knexUid === query.__knexUid) discardConnection(held);
  });
}
