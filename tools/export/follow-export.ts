import { ApiError, isPassingFailure } from '../../client/src/index.ts';

/** Seconds each batch of `--follow` waits on the server for a change. */
export const FOLLOW_WAIT_SECONDS = 30;
const MAX_BACKOFF_MS = 30_000;

/**
 * `npm run export -- --follow`: one incremental batch after the other
 * (`runBatch`, the `--sync-state` run, each appending to the file and saving
 * the token), each after the first waiting on the server for the next
 * change, until `signal` aborts. A failure that may pass (the network, a 429,
 * a 5xx) is retried with backoff from the saved state, so nothing is lost or
 * written twice; any other failure ends the command as a single run's would.
 */
export async function followExport({ runBatch, signal, onRetry }: {
  /** One batch; `first` on the first (the only one that may be a `--restart`); true when it reached its end. */
  runBatch: (first: boolean) => Promise<boolean>;
  signal: AbortSignal;
  onRetry: (error: Error, delayMs: number) => void;
}): Promise<void> {
  let failures = 0;
  for (let first = true; !signal.aborted; first = false) {
    try {
      await runBatch(first);
      failures = 0;
    } catch (error) {
      if (!isPassingFailure(error) || signal.aborted) throw error;
      failures += 1;
      const asked = error instanceof ApiError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : 0;
      const delayMs = Math.max(asked, Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures, 6)));
      onRetry(error as Error, delayMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delayMs);
        function done(): void {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done);
      });
    }
  }
}
