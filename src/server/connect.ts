import { migrateToLatest, pendingMigrations } from '../db/migrate.ts';
import { openEmbedded, openPostgres, POSTGRES_TIMEOUTS, type Database, type DriverLog } from '../db/open-database.ts';
import type { Config } from './config.ts';
import { embeddedCursorSecret, lockDataDir, pgliteDir } from './embedded-data.ts';

export interface Connection {
  readonly database: Database;
  readonly cursorSecret: string;
  close(): Promise<void>;
}

/**
 * Opens the configured database for the server or a tool. Postgres is used
 * as it is: `npm run db:migrate` changes its schema, and when `serving`, an
 * outdated schema stops start-up and statements are time-limited. The
 * embedded database is locked to this process and always migrated.
 */
export async function connect(config: Config, { serving = false, log }: { serving?: boolean; log?: DriverLog } = {}): Promise<Connection> {
  if (config.databaseUrl) {
    const database = openPostgres({ url: config.databaseUrl, poolMax: config.databasePoolMax, boundStatements: serving, log });
    if (serving) {
      const pending = await pendingMigrations(database.db).catch(async (error: Error) => {
        await database.close();
        // knex says "Timeout acquiring a connection. The pool is probably full", which misleads here.
        const reason = error.name === 'KnexTimeoutError' ? `Postgres did not answer: timed out after ${POSTGRES_TIMEOUTS.connectMs / 1000} s` : error.message;
        throw new Error(`cannot read the schema at DATABASE_URL: ${reason}`);
      });
      if (pending.length > 0) {
        await database.close();
        throw new Error(`the database schema is out of date (${pending.length} pending migrations): run \`npm run db:migrate\``);
      }
    }
    // A command needs no cursor secret; the server checks it has one (checkServeConfig).
    return { database, cursorSecret: config.cursorSecret ?? '', close: () => database.close() };
  }
  const release = await lockDataDir(config.dataDir);
  try {
    const database = await openEmbedded({ dir: pgliteDir(config.dataDir) });
    await migrateToLatest(database.db);
    const cursorSecret = config.cursorSecret ?? (await embeddedCursorSecret(config.dataDir));
    return {
      database,
      cursorSecret,
      close: async () => {
        await database.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
