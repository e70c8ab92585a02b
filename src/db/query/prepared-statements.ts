import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Named prepared statements for the engine's queries on Postgres: each
 * pooled connection parses and plans a query shape once, then only binds and
 * runs it. Planning was most of Postgres's work for a get by id (its joins
 * included): about three quarters of its CPU per request (docs/PERFORMANCE.md).
 *
 * Bounded: each connection keeps at most `perConnection` statements, the
 * least recently used one deallocated to make room, so a client that varies
 * its filters cannot grow Postgres's memory without end. 0 turns preparing
 * off (a pooler in transaction mode that cannot keep them, say).
 *
 * A statement Postgres no longer knows or can no longer run as prepared
 * (`DISCARD ALL` by a pooler; a migration that changed a selected column's
 * type) is forgotten and the query runs once more, unprepared.
 */

/** Statements a connection keeps unless told otherwise (DATABASE_STATEMENT_CACHE). */
export const DEFAULT_STATEMENTS_PER_CONNECTION = 200;

/** Statements per connection, and whether the connection is a transaction pooler's, by database handle; a handle without an entry prepares nothing here (tools; the embedded database prepares in embedded-statements.ts). */
const limits = new WeakMap<Knex, { readonly perConnection: number; readonly pooled: boolean }>();

/** Prepared statement names by text, least recently used first, by connection. */
const prepared = new WeakMap<pg.Client, Map<string, string>>();

/** Postgres's answers for a prepared statement it no longer has, or can no longer run as planned. */
export function isStaleStatement(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '26000' || (code === '0A000' && /cached plan must not change result type/.test(message ?? ''));
}

/**
 * `pooled`: the handle's connections go through a transaction pooler that
 * keeps protocol-level prepared statements itself (PgBouncer 1.21+ with
 * `max_prepared_statements`). Nothing is then evicted here: the pooler maps
 * statement names onto each server connection and bounds them with its own
 * cache, a SQL `deallocate` would reach whichever server connection ran it,
 * and a name forgotten here but kept by the pooler could not be parsed again.
 */
export function prepareStatements(db: Knex, { perConnection, pooled = false }: { perConnection: number; pooled?: boolean }): void {
  if (perConnection > 0) limits.set(db, { perConnection, pooled });
  else limits.delete(db);
}

type Row = Record<string, unknown>;

/** pg's own record of what a connection has parsed (so it sends Parse again after a deallocation). */
interface ParsedStatements {
  connection?: { parsedStatements?: Record<string, string> };
}

function forget(connection: pg.Client, statements: Map<string, string>, text: string): string | undefined {
  const name = statements.get(text);
  if (name === undefined) return undefined;
  statements.delete(text);
  delete (connection as ParsedStatements).connection?.parsedStatements?.[name];
  return name;
}

/** Makes room on a full connection: the least recently used statement goes, on Postgres too. */
async function evictOldest(connection: pg.Client, statements: Map<string, string>): Promise<void> {
  const name = forget(connection, statements, statements.keys().next().value!);
  try {
    await connection.query(`deallocate "${name}"`);
  } catch (error) {
    // Already gone is what was wanted.
    if ((error as { code?: string }).code !== '26000') throw error;
  }
}

/**
 * Runs `text` on a pooled connection: prepared when the query may be, the
 * database handle prepares and the connection is a Postgres client; as a
 * plain extended-protocol query otherwise.
 */
export async function runStatement({ db, connection, text, values, prepare }: {
  db: Knex;
  connection: { query(text: string, values: unknown[]): Promise<{ rows: Row[] }> };
  text: string;
  values: unknown[];
  /** False: planned for these values, unprepared (`SqlFragment.prepare`). */
  prepare: boolean;
}): Promise<Row[]> {
  const limit = limits.get(db);
  if (!prepare || limit === undefined || !(connection instanceof pg.Client)) return (await connection.query(text, values)).rows;
  let statements = prepared.get(connection);
  if (!statements) {
    statements = new Map();
    prepared.set(connection, statements);
  }
  let name = statements.get(text);
  if (name === undefined) {
    if (statements.size >= limit.perConnection && !limit.pooled) await evictOldest(connection, statements);
    name = `bcat_${hash('sha256', text, 'base64url').slice(0, 32)}`;
  }
  try {
    const { rows } = await connection.query({ name, text, values });
    // Kept once Postgres has it, most recently used last (a Map keeps insertion order).
    statements.delete(text);
    statements.set(text, name);
    return rows;
  } catch (error) {
    if (!isStaleStatement(error)) throw error;
    forget(connection, statements, text);
    return (await connection.query(text, values)).rows;
  }
}
