/**
 * Runs of one key shared by the requests that arrive together, each run
 * starting after every request it serves arrived. A request starts a run of
 * its own at once while fewer than `maxRunning` of its key run; beyond that
 * it joins the one run waiting to start, which starts as soon as one of the
 * running ends and serves every request that joined it.
 *
 * Exact counts decide with it, one at a time per key (exact-counts.ts): a
 * decision probes whether a count still holds, so it must begin after the
 * requests it answers arrived, and requests arriving during one share the
 * next.
 */

export interface CountBatcher {
  /** The result of `run` for `key`, shared with the requests of the same batch. */
  count<T>(key: string, run: () => Promise<T>): Promise<T>;
  /** Keys with a run running or waiting (for tests and metrics). */
  readonly size: number;
}

interface Batch {
  readonly running: Set<Promise<unknown>>;
  /** The run waiting for a running one to end, shared by every request that joined it. */
  next: Promise<unknown> | null;
}

export function createCountBatcher({ maxRunning = 1 }: { maxRunning?: number } = {}): CountBatcher {
  const batches = new Map<string, Batch>();

  const forgetIfIdle = (key: string, batch: Batch): void => {
    if (batch.running.size === 0 && batch.next === null) batches.delete(key);
  };

  function start<T>(key: string, batch: Batch, run: () => Promise<T>): Promise<T> {
    const running = run();
    batch.running.add(running);
    const settle = (): void => {
      batch.running.delete(running);
      forgetIfIdle(key, batch);
    };
    running.then(settle, settle);
    return running;
  }

  return {
    count<T>(key: string, run: () => Promise<T>): Promise<T> {
      let batch = batches.get(key);
      if (!batch) {
        batch = { running: new Set(), next: null };
        batches.set(key, batch);
      }
      const current = batch;
      if (current.next === null && current.running.size < maxRunning) return start(key, current, run);
      // Every run of this key may have started before this request: wait for the next one, which starts when the
      // first of them ends. If that one fails (a statement timeout, Postgres gone), the waiting batch fails with
      // it rather than starting a count that may fail the same way with nobody left to answer.
      current.next ??= Promise.race(current.running).then(
        () => {
          current.next = null;
          return start(key, current, run);
        },
        (error: unknown) => {
          current.next = null;
          forgetIfIdle(key, current);
          throw error;
        },
      );
      return current.next as Promise<T>;
    },
    get size() {
      return batches.size;
    },
  };
}
