import type { ChangeWatcher } from './change-watcher.ts';
import type { Snapshot } from '../../engine/compile/snapshot-text.ts';
import type { DeadlineSlots } from './deadline-slots.ts';
import type { HangUp } from './hang-up.ts';

/** How one wait ended: a change for the token (read after `mark`), the time up, the instance stopping, or the client gone. */
export type WaitOutcome =
  | { readonly kind: 'changed'; readonly mark: string | null }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'stop' }
  | { readonly kind: 'hung-up' };

/**
 * Waits, as one entry in the family's watcher, one in `deadlines` and one
 * listener, until the first of: the watcher wakes it, `deadline` (at the end
 * of its slot), the client hangs up (`hangUp`), or a stopper in `stoppers` is
 * called. Leaves nothing behind.
 */
export function waitOnce({ watcher, brandId, since, seen, token, deadline, deadlines, hangUp, stoppers }: {
  watcher: ChangeWatcher;
  brandId: string;
  since: Snapshot;
  seen: ReadonlySet<bigint>;
  /** The token's key in the watcher (`tokenKey`), made once for every wait of the same token. */
  token?: string;
  deadline: number;
  deadlines: DeadlineSlots;
  hangUp: HangUp;
  stoppers: Set<() => void>;
}): Promise<WaitOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: WaitOutcome): void => {
      if (settled) return;
      settled = true;
      cancelTimeout();
      unwatch();
      stopListening();
      stoppers.delete(onStop);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'hung-up' });
    const onStop = (): void => finish({ kind: 'stop' });
    const unwatch = watcher.add({ brandId, since, seen, ...(token === undefined ? {} : { token }), wake: (mark) => finish({ kind: 'changed', mark }) });
    const cancelTimeout = deadlines.at(deadline, () => finish({ kind: 'timeout' }));
    const stopListening = hangUp.listen(onAbort);
    stoppers.add(onStop);
    if (hangUp.hungUp) onAbort();
  });
}
