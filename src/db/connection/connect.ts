import { migrateToLatest } from '../schema/migrate-to-latest.ts';
import { openEmbedded, openPostgres, type Database, type DriverLog } from './open-database.ts';
import { embeddedCursorSecret, lockDataDir, pgliteDir } from './embedded-data-dir.ts';

/** The settings a connection needs (the server's `Config` has them, CONTRACT.md §5). */
export interface DatabaseSettings {
  /** Postgres to serve; null for the embedded database. */
  readonly databaseUrl: string | null;
  readonly databaseReplicaUrls: readonly string[];
  readonly databasePoolMax: number;
  readonly databaseStatementCache: number;
  /** `transaction`: the URLs go through a transaction-mode pooler, so no session state is kept on their connections. */
  readonly databasePooler: 'transaction' | null;
  /** Sign cursors (the first) and verify them (each); null means "generated and kept with the embedded data". */
  readonly cursorSecrets: readonly string[] | null;
  /** Folder of the embedded database, its cursor secret and its demo key. */
  readonly dataDir: string;
}

export interface Connection {
  readonly database: Database;
  /** Pools on the replicas of DATABASE_REPLICA_URLS, in their order (none for the embedded database). */
  readonly replicas: readonly Database[];
  /** The cursor secrets: the first signs, each verifies (empty for a command on Postgres, which needs none). */
  readonly cursorSecrets: readonly string[];
  close(): Promise<void>;
}

/**
 * Opens the configured database for the server or a tool. Postgres is used
 * as it is: `npm run db:migrate` changes its schema, and when `serving`,
 * statements are time-limited. Opening Postgres connects to nothing yet (the
 * pool connects on first use): the server reads its schema afterwards, and
 * waits for it to be current while it listens (schema-readiness.ts). The
 * embedded database is locked to this process and always migrated.
 */
export async function connect(config: DatabaseSettings, { serving = false, log }: { serving?: boolean; log?: DriverLog } = {}): Promise<Connection> {
  if (config.databaseUrl) {
    const options = { poolMax: config.databasePoolMax, statementCache: config.databaseStatementCache, boundStatements: serving, pooler: config.databasePooler, log };
    const database = openPostgres({ url: config.databaseUrl, ...options });
    // Replicas are copies of the primary: the primary's schema check covers them. A replica that is down at start
    // is no reason not to serve (its pool connects on first use, and reads fall back to the primary).
    const replicas = config.databaseReplicaUrls.map((url) => openPostgres({ url, ...options }));
    // A command needs no cursor secret; the server checks it has one (checkServeConfig).
    return {
      database,
      replicas,
      cursorSecrets: config.cursorSecrets ?? [],
      close: async () => {
        await Promise.all([database, ...replicas].map((open) => open.close()));
      },
    };
  }
  const release = await lockDataDir(config.dataDir);
  try {
    const database = await openEmbedded({ dir: pgliteDir(config.dataDir), statementCache: config.databaseStatementCache });
    await migrateToLatest(database.db);
    const cursorSecrets = config.cursorSecrets ?? [await embeddedCursorSecret(config.dataDir)];
    return {
      database,
      replicas: [],
      cursorSecrets,
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
