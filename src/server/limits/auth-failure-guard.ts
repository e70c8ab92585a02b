import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.ts';

/**
 * Keeps a flood of bad keys cheap: failed authentications are counted per
 * client (its IP), and a client past its budget is blocked for the rest of
 * the window. A blocked client's requests that carry no valid key are
 * refused with 429; its valid keys are still served (authenticate.ts says
 * how, and why). Checking costs no round trip: blocked clients are known in
 * process; only a failure is counted in the store.
 */
export interface AuthFailureGuard {
  /** Whole seconds left of the client's block (0: not blocked): the `Retry-After` of its failures. */
  blockedFor(client: string): number;
  /** Counts a failed authentication; past the budget the client is blocked for the rest of the window. */
  recordFailure(client: string): Promise<void>;
}

/** Failed authentications a client may make per window, and the window. */
export const AUTH_FAILURE_WINDOW_SECONDS = 60;

/** Blocked clients kept in process at most: a flood from many addresses cannot grow the map without end. */
const MAX_BLOCKED = 100_000;

/**
 * The guard over `failures`, the store that counts failed authentications
 * per client. Each failure first waits for `firstConnection()` when it is
 * not null (the store's first connection attempt). A store that fails to
 * count is logged, and the failure goes uncounted.
 */
export function createAuthFailureGuard({ failures, firstConnection, logger }: {
  failures: RateLimiterAbstract;
  firstConnection: () => Promise<void> | null;
  logger: Logger;
}): AuthFailureGuard {
  /** Clients blocked for failing too often, and until when (ms since the epoch). */
  const blocked = new Map<string, number>();
  return {
    blockedFor(client) {
      const until = blocked.get(client);
      if (until === undefined) return 0;
      const left = until - Date.now();
      if (left > 0) return Math.ceil(left / 1000);
      blocked.delete(client);
      return 0;
    },
    async recordFailure(client) {
      let result: RateLimiterRes;
      const connecting = firstConnection();
      if (connecting) await connecting;
      try {
        result = await failures.consume(client);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) {
          logger.warn({ err: (rejection as Error).message }, 'counting a failed authentication failed');
          return;
        }
        result = rejection;
      }
      // The budget is spent with this failure: the next attempt waits for the window's end.
      if (result.remainingPoints > 0) return;
      if (blocked.size >= MAX_BLOCKED) blocked.clear();
      blocked.set(client, Date.now() + result.msBeforeNext);
    },
  };
}
