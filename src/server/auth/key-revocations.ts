import pg from 'pg';
import { KEY_REVOKED_CHANNEL } from './api-keys.ts';
import type { KeyCache } from './key-cache.ts';
import type { Logger } from '../logger.ts';

/** How long to wait before listening again after the connection was lost. */
const RECONNECT_MS = 2000;

/**
 * Listens for key revocations on a dedicated Postgres connection and drops
 * the revoked key from the cache as each one commits. The cache only works
 * while the listener does: when the connection is lost the cache is turned
 * off (every request asks the database) until listening again, so a
 * revocation is never missed for longer than the notification takes.
 */
export function watchKeyRevocations({ url, cache, logger }: { url: string; cache: KeyCache; logger: Logger }): { stop(): Promise<void> } {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const lost = (error?: Error): void => {
    cache.setEnabled(false);
    if (stopped || retry) return;
    logger.warn({ err: error?.message ?? 'connection ended' }, 'key revocation listener lost: key cache off until it listens again');
    client?.removeAllListeners();
    void client?.end().catch(() => {});
    client = null;
    retry = setTimeout(() => {
      retry = null;
      void listen();
    }, RECONNECT_MS);
    retry.unref();
  };

  const listen = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    client = next;
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', (message) => {
      if (message.channel === KEY_REVOKED_CHANNEL && message.payload) cache.forgetKey(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${KEY_REVOKED_CHANNEL}`);
      if (stopped) return;
      cache.setEnabled(true);
    } catch (error) {
      lost(error as Error);
    }
  };

  cache.setEnabled(false);
  void listen();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      cache.setEnabled(false);
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => {});
    },
  };
}
