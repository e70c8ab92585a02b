import type { Knex } from 'knex';

/** A connection of knex's pool as `pg` and PGlite both offer it: `$n` placeholders, arrays bound as arrays. */
export interface RawConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

interface PoolingClient {
  acquireConnection(): Promise<RawConnection>;
  releaseConnection(connection: RawConnection): Promise<void>;
}

/** Runs `use` in a transaction on one pooled connection, and rolls it back: the database is left as it was. */
export async function inRolledBackTransaction<T>(db: Knex, use: (connection: RawConnection) => Promise<T>): Promise<T> {
  const client = db.client as PoolingClient;
  const connection = await client.acquireConnection();
  try {
    await connection.query('begin');
    try {
      return await use(connection);
    } finally {
      await connection.query('rollback');
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
