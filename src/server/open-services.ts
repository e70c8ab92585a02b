import { connect, type Connection } from '../db/connection/connect.ts';
import { createReadReplicas, type ReadReplicas } from '../db/connection/read-replicas.ts';
import { createKeyCache, type KeyCache } from './auth/key-cache.ts';
import { watchKeyRevocations } from './auth/key-revocations.ts';
import type { Config } from './config.ts';
import { createRateLimiter, type RateLimiter } from './limits/rate-limiter.ts';
import type { Logger } from './logger.ts';

/** What a serving process holds open besides its HTTP server. */
export interface Services {
  readonly connection: Connection;
  readonly limiter: RateLimiter;
  readonly keyCache: KeyCache;
  readonly reads: ReadReplicas;
  /** Lets go of them all: replica probes, the revocation listener, Redis, the database (and the embedded database's lock). */
  release(): Promise<void>;
}

/**
 * Opens what the server needs, from the settings: the database and its
 * replicas, the rate limiter (on Redis when configured), the key cache and,
 * on Postgres, the listener that keeps it in step with revocations.
 */
export async function openServices({ config, logger }: { config: Config; logger: Logger }): Promise<Services> {
  const connection = await connect(config, {
    serving: true,
    // knex reports a lost or refused connection itself: as JSON log lines, like everything on stdout.
    log: { warn: (message) => logger.warn({ source: 'knex' }, message), error: (message) => logger.error({ source: 'knex' }, message) },
  });
  const limiter = createRateLimiter({
    points: config.rateLimitPoints,
    windowSeconds: config.rateLimitWindowSeconds,
    redisUrl: config.redisUrl,
    authFailurePoints: config.authFailureLimit,
    logger,
  });
  // Key lookups are kept for KEY_CACHE_SECONDS; on Postgres every revocation reaches this cache at once
  // (the embedded database has no other process to revoke keys while it serves).
  const keyCache = createKeyCache({ ttlMs: config.keyCacheSeconds * 1000 });
  const revocations = config.databaseUrl && config.keyCacheSeconds > 0 ? watchKeyRevocations({ url: config.databaseUrl, cache: keyCache, logger }) : null;
  const reads = createReadReplicas({
    primary: { name: 'primary', db: connection.database.db },
    replicas: connection.replicas.map((replica, i) => ({ name: `replica-${i + 1}`, db: replica.db })),
    log: logger,
  });
  const release = async (): Promise<void> => {
    reads.close();
    await revocations?.stop();
    await limiter.close();
    await connection.close();
  };
  return { connection, limiter, keyCache, reads, release };
}
