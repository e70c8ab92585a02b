import type { Knex } from 'knex';
import { hashKey } from './api-keys.ts';

/** Hashes one query checks at most; the rest wait for the next query. */
const MAX_BATCH = 500;

/** Whether a key is live (exists, not revoked, not expired), answered in batches. */
export type LiveKeyCheck = (key: string) => Promise<boolean>;

interface Waiting {
  resolve(live: boolean): void;
  reject(error: unknown): void;
}

/**
 * Answers "is this a live key?" for the clients blocked by the
 * failed-authentication limit (see authenticate.ts), whose requests may come
 * in a flood of made-up keys: the keys that arrive while a query runs are
 * all checked by the next one (`key_hash in (...)`, one index probe each),
 * so these clients together never hold more than one database connection,
 * whatever their number of requests. A query failure fails its batch.
 */
export function createLiveKeyCheck({ db }: { db: Knex }): LiveKeyCheck {
  const waiting = new Map<string, Waiting[]>();
  let running = false;

  const check = async (batch: Map<string, Waiting[]>): Promise<void> => {
    let live: Set<string>;
    try {
      const rows = (await db('api_keys')
        .select('key_hash')
        .whereIn('key_hash', [...batch.keys()])
        .whereNull('revoked_at')
        .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))) as { key_hash: string }[];
      live = new Set(rows.map((row) => row.key_hash));
    } catch (error) {
      for (const requests of batch.values()) for (const request of requests) request.reject(error);
      return;
    }
    for (const [hash, requests] of batch) for (const request of requests) request.resolve(live.has(hash));
  };

  /** One query at a time, until nobody waits; everything that arrived meanwhile goes in the next. */
  const drain = async (): Promise<void> => {
    running = true;
    while (waiting.size > 0) {
      const batch = new Map<string, Waiting[]>();
      for (const [hash, requests] of waiting) {
        if (batch.size >= MAX_BATCH) break;
        batch.set(hash, requests);
      }
      for (const hash of batch.keys()) waiting.delete(hash);
      await check(batch);
    }
    running = false;
  };

  return (key) => new Promise<boolean>((resolve, reject) => {
    const hash = hashKey(key);
    const requests = waiting.get(hash);
    if (requests) requests.push({ resolve, reject });
    else waiting.set(hash, [{ resolve, reject }]);
    // After the I/O callbacks of this turn, so that the requests read in the same turn share the first query.
    if (!running) {
      running = true;
      setImmediate(() => void drain());
    }
  });
}
