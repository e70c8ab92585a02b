import type { Knex } from 'knex';
import { pruneTombstones } from '../db/prune-tombstones.ts';
import type { Logger } from './logger.ts';

/** Once an hour: tombstones are kept for days, so an hour late is nothing. */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * Prunes the changes feed's old tombstones now and then on a timer that never
 * keeps the process alive. Every instance may run it: the deletes are
 * idempotent. A failure is logged and tried again next time. Returns the stop.
 */
export function startTombstonePruning({ db, retentionDays, logger, everyMs = PRUNE_EVERY_MS }: {
  db: Knex;
  retentionDays: number;
  logger: Logger;
  everyMs?: number;
}): () => void {
  let running = false;
  const prune = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const pruned = await pruneTombstones({ db, retentionDays });
      if (pruned > 0) logger.info({ pruned, retentionDays }, 'pruned changes-feed tombstones');
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'could not prune changes-feed tombstones');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void prune(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
