import { loadConfig } from '../../src/server/config.ts';
import { connect, type Connection } from '../../src/db/connection/connect.ts';

/**
 * The database a command works on: DATABASE_URL, or the embedded database in
 * DATA_DIR (which must not be open in a running server).
 */
export async function openToolConnection(): Promise<Connection> {
  return connect(loadConfig());
}

/** Runs a command body, closing the connection and turning known failures into one line on stderr. */
export async function runTool(body: (connection: Connection) => Promise<number>): Promise<void> {
  let connection: Connection | null = null;
  try {
    connection = await openToolConnection();
    process.exitCode = await body(connection);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await connection?.close();
  }
}
