import type { Knex } from 'knex';
import type pg from 'pg';
import { runStatement } from './prepared-statements.ts';
import { embeddedStatements } from './embedded-statements.ts';
import { toPositional } from './to-positional.ts';
import type { Row } from '../../engine/read/reads.ts';
import type { SqlFragment } from '../../engine/compile/sql-fragment.ts';
import { isReadTimeout } from '../connection/connection-failure.ts';
import { discardConnection } from '../connection/silent-connections.ts';
import { postgresPool } from '../connection/postgres-pool.ts';

/** What a pooled connection answers: `pg`'s Client and PGlite both have this `query`. */
interface QueryConnection {
  query(text: string, values: unknown[]): Promise<{ rows: Row[] }>;
}

/** The parts of knex's client the engine uses: its connection (the embedded database's), and its query event. */
interface PoolingClient {
  acquireConnection(): Promise<QueryConnection>;
  releaseConnection(connection: QueryConnection): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: readonly unknown[]; method: 'raw' }): boolean;
}

/** Numbered texts by engine text: each query shape is numbered once (bounded: a client can vary the shapes). */
const numbered = new Map<string, string>();
const MAX_NUMBERED = 10_000;

function positional(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    text = toPositional(sql);
    if (numbered.size >= MAX_NUMBERED) numbered.clear();
    numbered.set(sql, text);
  }
  return text;
}

/**
 * Runs one of the engine's queries on a pooled connection, without knex's
 * query builder and runner: those cost about a fifth of a simple read's
 * time in the server process (docs/PERFORMANCE.md). On Postgres the
 * connection comes straight from the handle's pg pool (postgres-pool.ts),
 * which knex shares, and query shapes run as prepared statements
 * (prepared-statements.ts); the embedded database lends knex's one
 * connection. knex's `query` event still fires when anyone listens.
 */
export async function queryRows(db: Knex, query: SqlFragment): Promise<Row[]> {
  const client = db.client as PoolingClient;
  // Built only for a listener: knex forwards its client's events to the handle's (`db.on('query')`).
  if (db.listenerCount('query') > 0) client.emit('query', { sql: query.sql, bindings: query.bindings, method: 'raw' });
  const pool = postgresPool(db);
  const connection = pool === null ? await client.acquireConnection() : await pool.connect();
  let broken: Error | undefined;
  try {
    return await run(db, connection, query);
  } catch (error) {
    // Only the pg pool's connections are dropped here; knex's one embedded connection has no socket to wait on.
    if (pool !== null && isReadTimeout(error)) {
      discardConnection(connection);
      broken = error as Error;
    }
    throw error;
  } finally {
    // With an error, pg-pool closes the connection instead of keeping it.
    if (pool === null) await client.releaseConnection(connection);
    else (connection as pg.PoolClient).release(broken);
  }
}

function run(db: Knex, connection: QueryConnection, query: SqlFragment): Promise<Row[]> {
  const text = positional(query.sql);
  const values = query.bindings as unknown[];
  const prepare = query.prepare !== false;
  // The embedded database's connection prepares on its own (embedded-statements.ts); Postgres's in runStatement.
  const embedded = prepare ? embeddedStatements(connection) : undefined;
  return embedded ? embedded(text, values) : runStatement({ db, connection, text, values, prepare });
}
