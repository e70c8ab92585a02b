/**
 * When the client asks again. Every call of the API is a GET, so repeating one
 * is safe; what is bounded is how long a caller waits before it hears of a
 * failure.
 *
 * - 429: wait the `Retry-After` seconds the server gives (or, without it, the
 *   `t` of its `RateLimit` field: seconds until the window resets), then ask
 *   again.
 * - 502, 503, 504 (a proxy or load balancer without a healthy instance) and
 *   network failures (refused, reset): wait a doubling backoff, then ask again.
 * - Everything else, other 4xx and 500 included, is final: asking again
 *   would get the same answer.
 *
 * At most `maxRetries` retries per request; then the last error is thrown.
 */

export const DEFAULT_MAX_RETRIES = 3;

/** Told before each wait, so a caller can say why it is waiting (a long Retry-After looks like a hang otherwise). */
export interface RetryNotice {
  /** 1 for the first retry of this request. */
  readonly retry: number;
  readonly delayMs: number;
  /** `rate_limited` (429), `status 503` and the like, or `network`. */
  readonly reason: string;
  /** The URL asked, without its query. */
  readonly url: string;
}

/** First wait without a `Retry-After`, doubled on each attempt, up to the cap. */
const BACKOFF_START_MS = 500;
const BACKOFF_CAP_MS = 8_000;

const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export function isRetriedStatus(status: number): boolean {
  return RETRIED_STATUSES.has(status);
}

/** `Retry-After` in whole seconds (the contract's form), or null when absent or in another form. */
export function parseRetryAfter(header: string | null): number | null {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : null;
}

/**
 * What the structured `RateLimit` field of the IETF draft says is left:
 * `"default";r=57;t=30` gives 57 requests remaining and 30 seconds until the
 * window resets. Null when absent or not in that form; the first policy
 * listed counts.
 */
export function parseRateLimit(header: string | null): { remaining: number; resetSeconds: number } | null {
  if (header === null) return null;
  const first = header.split(',')[0]!;
  const parameters = new Map(first.split(';').slice(1).map((part) => {
    const [name = '', value = ''] = part.split('=').map((piece) => piece.trim());
    return [name, value] as const;
  }));
  const remaining = parameters.get('r');
  const reset = parameters.get('t');
  if (!/^"[^"]*"$|^[a-z*][a-z0-9_.*-]*$/i.test(first.split(';')[0]!.trim()) || !/^\d+$/.test(remaining ?? '') || !/^\d+$/.test(reset ?? '')) return null;
  return { remaining: Number(remaining), resetSeconds: Number(reset) };
}

/** How long to wait before retry number `attempt` (0 for the first retry). */
export function retryDelayMs({ attempt, retryAfterSeconds }: { attempt: number; retryAfterSeconds: number | null }): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds * 1000;
  return Math.min(BACKOFF_START_MS * 2 ** attempt, BACKOFF_CAP_MS);
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
