import type { ChangeBatch, ChangeItem } from './change-batch.ts';
import { ApiError, isPassingFailure } from './errors.ts';

/** One batch of a followed feed: its items in order, and the token to store once they are applied. */
export interface FollowedBatch<R> {
  readonly items: ChangeItem<R>[];
  readonly syncToken: string;
}

export interface FollowOptions {
  /** Where to start: the stored token, or null for a full sync first. */
  readonly syncToken?: string | null;
  /** Seconds each call may wait for a change, 1 to 60 (default 30). */
  readonly wait?: number;
  /** Ends the iterator (without an error) when aborted, a waiting call included. */
  readonly signal?: AbortSignal;
  /** Told of each failure the iterator backs off from and retries (a network error, a 5xx, a 429); any other failure is thrown. */
  readonly onError?: (error: Error) => void;
}

/** The longest pause between two failed calls. */
const MAX_BACKOFF_MS = 30_000;

const pause = (ms: number, signal: AbortSignal | undefined): Promise<void> => new Promise((resolve) => {
  const timer = setTimeout(done, ms);
  function done(): void {
    clearTimeout(timer);
    signal?.removeEventListener('abort', done);
    resolve();
  }
  signal?.addEventListener('abort', done);
});

/**
 * Follows a changes feed (CONTRACT.md §7): batch after batch, each call
 * after a token waiting on the server until a change commits, forever. Yields
 * every batch, empty ones too (their token is newer: store it). Keeps the
 * token itself; backs off on failures (the server's `Retry-After` when it
 * gave one) and goes on with the same token, so nothing is missed. Ends only
 * when `signal` aborts; a failure that would fail again is thrown: a 410
 * (`SyncTokenExpiredError`: the copy must start again without a token), a
 * 401 (a revoked or expired key), a 400 or a 404.
 */
export async function* followChanges<R>({ batchOf, syncToken = null, wait = 30, signal, onError }: FollowOptions & {
  /** A batch from `token`, waiting `wait` seconds when there is a token. */
  batchOf: (token: string | null, wait: number | undefined, signal: AbortSignal | undefined) => ChangeBatch<R>;
}): AsyncGenerator<FollowedBatch<R>, void, undefined> {
  if (!Number.isInteger(wait) || wait < 1 || wait > 60) throw new RangeError(`wait must be a whole number of seconds from 1 to 60, not ${wait}`);
  let token = syncToken;
  let failures = 0;
  while (!signal?.aborted) {
    const items: ChangeItem<R>[] = [];
    try {
      const batch = batchOf(token, token === null ? undefined : wait, signal);
      for await (const item of batch) items.push(item);
      failures = 0;
      token = batch.syncToken!;
    } catch (error) {
      if (signal?.aborted) return;
      if (!isPassingFailure(error)) throw error;
      failures += 1;
      onError?.(error as Error);
      const asked = error instanceof ApiError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : 0;
      await pause(Math.max(asked, Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(failures, 7))), signal);
      continue;
    }
    yield { items, syncToken: token };
  }
}
