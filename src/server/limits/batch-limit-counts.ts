/**
 * Rate-limit counts of one key that arrive in the same turn of the event loop
 * go to the store as one increment of N, not N increments: one Redis command
 * (and one round trip) for a burst of a key's requests, instead of one each.
 * The limit stays exact: the increment is atomic, and each request is given
 * its own place in the count (the count before the batch plus its position in
 * arrival order), which is what N single increments in that order would have
 * given it. Across instances nothing changes: every instance adds to the same
 * counter.
 */

/** What the store says after adding `points`: the key's count now, and when its window ends. */
export interface StoreCount {
  readonly consumedPoints: number;
  readonly msBeforeNext: number;
}

/** One request's place in its key's count for the window. */
export interface CountedRequest {
  /** The key's count with this request: allowed while it is at most the limit. */
  readonly count: number;
  readonly msBeforeNext: number;
}

interface Waiting {
  resolve(counted: CountedRequest): void;
  reject(error: unknown): void;
}

/**
 * Wraps `add(key, points)` (the store's atomic increment) into a per-request
 * `count(key)`. A store failure fails every request of its batch.
 */
export function batchLimitCounts({ add }: { add: (key: string, points: number) => Promise<StoreCount> }): (key: string) => Promise<CountedRequest> {
  let waiting = new Map<string, Waiting[]>();
  let scheduled = false;

  const send = async (key: string, requests: readonly Waiting[]): Promise<void> => {
    let after: StoreCount;
    try {
      after = await add(key, requests.length);
    } catch (error) {
      for (const request of requests) request.reject(error);
      return;
    }
    const before = after.consumedPoints - requests.length;
    requests.forEach((request, i) => request.resolve({ count: before + i + 1, msBeforeNext: after.msBeforeNext }));
  };

  // After the I/O callbacks of this turn (setImmediate): every request read in the turn is in the batch.
  const flush = (): void => {
    scheduled = false;
    const batches = waiting;
    waiting = new Map();
    for (const [key, requests] of batches) void send(key, requests);
  };

  return (key) => new Promise<CountedRequest>((resolve, reject) => {
    const requests = waiting.get(key);
    if (requests) requests.push({ resolve, reject });
    else waiting.set(key, [{ resolve, reject }]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
}
