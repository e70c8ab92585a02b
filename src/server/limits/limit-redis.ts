import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

/** The longest a request waits on Redis: a command's timeout, and the wait for the first connection. */
export const REDIS_WAIT_MS = 500;

/** The rate limiter's Redis connection, and the wait for its first connection attempt. */
export interface LimitRedis {
  readonly client: Redis;
  /**
   * Settles when the first connection attempt has: Redis ready, or failed.
   * Counts wait for it (at most REDIS_WAIT_MS), so a server's first requests
   * are not counted in process and then forgotten when Redis comes up a few
   * milliseconds later. Once settled it is null and nothing waits on Redis.
   */
  firstConnection(): Promise<void> | null;
}

/**
 * Connects without ever making a request wait: no queue while disconnected,
 * a command times out after REDIS_WAIT_MS, and reconnects go on for as long
 * as the process lives. An outage is logged once, and so is the return.
 */
export function connectLimitRedis({ redisUrl, logger }: { redisUrl: string; logger: Logger }): LimitRedis {
  const client = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: REDIS_WAIT_MS,
    // Limit checks issued in the same tick go to Redis in one write: fewer syscalls under load, same round trips.
    enableAutoPipelining: true,
    // Keep trying to reconnect, at most every 2 s, for as long as the process lives.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  logOutages(client, logger);
  let first: Promise<void> | null = firstConnectionAttempt(client).then(() => {
    first = null;
  });
  return { client, firstConnection: () => first };
}

function logOutages(client: Redis, logger: Logger): void {
  let healthy = true;
  client.on('ready', () => {
    if (!healthy) logger.info('redis is back: rate limits are shared again');
    healthy = true;
  });
  client.on('error', (error: Error) => {
    // Logged once per outage, not on every reconnect attempt.
    if (healthy) logger.warn({ err: error.message }, 'redis unreachable: rate limits fall back to in-process counters');
    healthy = false;
  });
}

/** Settles on the first `ready`, `error` or `end`, or after REDIS_WAIT_MS, whichever comes first. */
function firstConnectionAttempt(client: Redis): Promise<void> {
  return new Promise<void>((settle) => {
    const timer = setTimeout(settle, REDIS_WAIT_MS);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      client.off('ready', done).off('error', done).off('end', done);
      settle();
    };
    client.once('ready', done).once('error', done).once('end', done);
  });
}
