import type { Knex } from 'knex';
import type { KeyCache } from './key-cache.ts';
import type { Logger } from '../logger.ts';

/** How often the revocations are read when no session can LISTEN for them. */
export const REVOCATION_POLL_MS = 1_000;

/**
 * How far back each poll looks, beyond the cache's own lifetime. A revoked
 * key's `revoked_at` is its transaction's start, which may precede the
 * commit: a revocation committed up to this long after it began is still
 * seen. `npm run keys -- revoke` commits within milliseconds.
 */
const LATE_COMMIT_MARGIN_SECONDS = 60;

/**
 * The revocation notices' fallback behind a transaction pooler with no
 * DATABASE_SESSION_URL (CONTRACT.md §5): LISTEN needs a session, so every
 * `intervalMs` one ordinary pooled query reads the keys revoked recently
 * enough that a grant of theirs could still be cached, and drops them.
 * A revocation so reaches this instance within about `intervalMs`, instead
 * of at once. While the query fails the cache is off (every request asks the
 * database), as while a listener is lost; it comes back on the next answer.
 */
export function pollKeyRevocations({ db, cache, cacheSeconds, logger, intervalMs = REVOCATION_POLL_MS }: {
  db: Knex;
  cache: KeyCache;
  /** KEY_CACHE_SECONDS: how long a grant may stay cached, so how far back a revocation still matters. */
  cacheSeconds: number;
  logger: Logger;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  const windowSeconds = cacheSeconds + Math.ceil(intervalMs / 1000) + LATE_COMMIT_MARGIN_SECONDS;
  let stopped = false;
  // Off until the first read succeeds, and while reads fail.
  let failing = true;
  // The ids the last read returned: each revoked key is dropped once, when first seen.
  let seen = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const poll = async (): Promise<void> => {
    try {
      const { rows } = (await db.raw('select id from api_keys where revoked_at > now() - make_interval(secs => ?)', [windowSeconds])) as { rows: { id: string }[] };
      if (stopped) return;
      const ids = new Set(rows.map((row) => row.id));
      if (failing) {
        cache.setEnabled(true); // starts empty: nothing cached can predate this read
        failing = false;
      } else {
        for (const id of ids) if (!seen.has(id)) cache.forgetKey(id);
      }
      seen = ids;
    } catch (error) {
      if (stopped) return;
      if (!failing) {
        logger.warn({ err: (error as Error).message }, 'key revocations cannot be read: key cache off until they can');
        cache.setEnabled(false);
      }
      failing = true;
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().then(schedule);
    }, intervalMs);
    timer.unref();
  };

  // Off until the first read: a grant cached before it could belong to a key revoked a moment ago.
  cache.setEnabled(false);
  running = poll().then(schedule);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      cache.setEnabled(false);
      await running;
    },
  };
}
