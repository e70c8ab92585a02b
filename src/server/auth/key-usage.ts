import type { Knex } from 'knex';

/**
 * When each key was last used, to the minute (CONTRACT.md §5, `keys list`),
 * recorded without a write per request: an instance notes the keys its
 * requests carried, in memory, and every `intervalMs` writes the ones whose
 * last minute of use is newer than what it last wrote for them, all in one
 * statement on the primary. So a key costs the database at most one write
 * a minute per instance, however many requests it makes, and nothing while
 * it is idle. The statement is a plain UPDATE (no session state), which a
 * transaction pooler passes through, and it never moves `last_used_at`
 * back (several instances write the same key). A failed write is tried
 * again at the next round; the minutes noted at a stop are written then.
 */
export interface KeyUsage {
  /** Notes a request of a key now. */
  seen(keyId: string): void;
  /** Writes what is due now (the rounds do it; tests and the stop call it). */
  flush(): Promise<void>;
  /** Stops the rounds and writes what is left. */
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;
/** Keys noted at most between two rounds: a flood of keys cannot grow the map without bound. */
const MAX_NOTED = 100_000;

/** The statement of a round: each key's minute, never earlier than the one stored. */
const RECORD = `update api_keys k set last_used_at = greatest(coalesce(k.last_used_at, u.at), u.at)
  from unnest(?::uuid[], ?::timestamptz[]) as u(id, at) where k.id = u.id`;

export function createKeyUsage({ db, intervalMs = MINUTE_MS, now = Date.now, onError = () => {} }: {
  /** The primary, where keys live. */
  db: Knex;
  intervalMs?: number;
  now?: () => number;
  onError?: (error: Error) => void;
}): KeyUsage {
  /** The last minute of use of each key (ms since the epoch, whole minutes), and the last one written. */
  const noted = new Map<string, number>();
  const written = new Map<string, number>();
  let flushing: Promise<void> = Promise.resolve();

  const round = async (): Promise<void> => {
    const due = [...noted].filter(([id, minute]) => (written.get(id) ?? -Infinity) < minute);
    if (due.length === 0) return;
    try {
      await db.raw(RECORD, [due.map(([id]) => id), due.map(([, minute]) => new Date(minute).toISOString())]);
      for (const [id, minute] of due) written.set(id, minute);
      for (const [id, minute] of due) if (noted.get(id) === minute) noted.delete(id);
      if (written.size > MAX_NOTED) written.clear();
    } catch (error) {
      onError(error as Error);
    }
  };
  const flush = (): Promise<void> => {
    flushing = flushing.then(round);
    return flushing;
  };
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  return {
    seen(keyId) {
      const minute = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
      if (noted.get(keyId) === minute || written.get(keyId) === minute) return;
      if (noted.size >= MAX_NOTED) return;
      noted.set(keyId, minute);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
