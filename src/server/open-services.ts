import type { Knex } from 'knex';
import { connect, type Connection } from '../db/connection/connect.ts';
import { createReadReplicas, type ReadReplicas } from '../db/connection/read-replicas.ts';
import { ALWAYS_READY, waitForSchema, type SchemaReadiness } from '../db/connection/schema-readiness.ts';
import { createKeyCache, type KeyCache } from './auth/key-cache.ts';
import { createKeyUsage, type KeyUsage } from './auth/key-usage.ts';
import { watchKeyRevocations } from './auth/key-revocations.ts';
import { pollKeyRevocations } from './auth/key-revocation-poll.ts';
import type { Config } from './config.ts';
import { createRateLimiter, type RateLimiter } from './limits/rate-limiter.ts';
import type { Logger } from './logger.ts';

/** What a serving process holds open besides its HTTP server. */
export interface Services {
  readonly connection: Connection;
  readonly limiter: RateLimiter;
  readonly keyCache: KeyCache;
  /** When each key was last used, written at most once a minute per key (key-usage.ts). */
  readonly keyUsage: KeyUsage;
  readonly reads: ReadReplicas;
  /** Whether the database can be served yet: on Postgres, once its schema is read and current; the embedded one at once. */
  readonly readiness: SchemaReadiness;
  /** Lets go of them all: the schema wait, replica probes, the key cache's refresh, the revocation listener, Redis, the database (and the embedded database's lock). */
  release(): Promise<void>;
}

/**
 * Opens what the server needs, from the settings: the database and its
 * replicas, the rate limiter (on Redis when configured), the key cache and,
 * on Postgres, the listener that keeps it in step with revocations. On
 * Postgres nothing here waits for the database: its schema is read in the
 * background until it can be served (`readiness`), and the revocation
 * listener starts then, so that a missing database is logged once per
 * attempt, by the schema wait alone.
 */
export async function openServices({ config, logger }: { config: Config; logger: Logger }): Promise<Services> {
  // Until the database is ready, each attempt's failure is logged by the schema wait, in one line: not again by knex.
  let waiting = config.databaseUrl !== null;
  const connection = await connect(config, {
    serving: true,
    // knex reports a lost or refused connection itself: as JSON log lines, like everything on stdout.
    log: {
      warn: (message) => {
        if (!(waiting && message.startsWith('Acquire connection error'))) logger.warn({ source: 'knex' }, message);
      },
      error: (message) => logger.error({ source: 'knex' }, message),
    },
  });
  const limiter = createRateLimiter({
    points: config.rateLimitPoints,
    windowSeconds: config.rateLimitWindowSeconds,
    redisUrl: config.redisUrl,
    authFailurePoints: config.authFailureLimit,
    logger,
  });
  const readiness = config.databaseUrl ? waitForSchema({ db: connection.database.db, log: logger }) : ALWAYS_READY;
  // Key lookups are kept for KEY_CACHE_SECONDS, those in use read again together on the primary every
  // half of it; on Postgres every revocation reaches this cache at once (the embedded database has no
  // other process to revoke keys while it serves). Until the listener listens, the cache is off.
  const keyCache = createKeyCache({
    ttlMs: config.keyCacheSeconds * 1000,
    refresh: {
      db: connection.database.db,
      onError: (error) => logger.warn({ err: error.message }, 'key grants cannot be refreshed: each is looked up again when it expires'),
    },
  });
  void readiness.whenReady.then(() => {
    waiting = false;
  });
  let released = false;
  let revocations: { stop(): Promise<void> } | null = null;
  if (config.databaseUrl && config.keyCacheSeconds > 0) {
    keyCache.setEnabled(false);
    void readiness.whenReady.then(() => {
      if (!released) revocations = followRevocations({ config, keyCache, db: connection.database.db, logger });
    });
  }
  const reads = createReadReplicas({
    primary: { name: 'primary', db: connection.database.db },
    replicas: connection.replicas.map((replica, i) => ({ name: `replica-${i + 1}`, db: replica.db })),
    log: logger,
  });
  const keyUsage = keyUsageOn({ db: connection.database.db, logger });
  const release = async (): Promise<void> => {
    released = true;
    readiness.stop();
    reads.close();
    await keyUsage.close(); // the minutes of use noted since its last round, before the database goes
    await keyCache.close();
    await revocations?.stop();
    await limiter.close();
    await connection.close();
  };
  return { connection, limiter, keyCache, keyUsage, reads, readiness, release };
}

/** When keys were last used, recorded on the primary, where keys are written; a failed round is tried again at the next. */
function keyUsageOn({ db, logger }: { db: Knex; logger: Logger }): KeyUsage {
  return createKeyUsage({ db, onError: (error) => logger.warn({ err: error.message }, 'the last use of keys could not be recorded: tried again in a minute') });
}

/**
 * Revocation notices on the session connection (LISTEN); behind a
 * transaction pooler with no DATABASE_SESSION_URL, where nothing can LISTEN,
 * a poll through the pool (key-revocation-poll.ts).
 */
function followRevocations({ config, keyCache, db, logger }: { config: Config; keyCache: KeyCache; db: Knex; logger: Logger }): { stop(): Promise<void> } {
  if (config.databaseSessionUrl !== null) return watchKeyRevocations({ url: config.databaseSessionUrl, cache: keyCache, logger });
  logger.info('behind a transaction pooler with no DATABASE_SESSION_URL: key revocations are polled every second');
  return pollKeyRevocations({ db, cache: keyCache, cacheSeconds: config.keyCacheSeconds, logger });
}
