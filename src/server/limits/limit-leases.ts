import { batchLimitCounts, type CountedRequest, type StoreCount } from './batch-limit-counts.ts';

/**
 * Leases: while a key has plenty of its budget left, the instance takes a
 * few points more than its requests need with the same increment, and
 * counts the next requests against them in process, with no round trip to
 * the store. At a high rate per key, this takes the Redis command off most
 * requests (docs/PERFORMANCE.md, "Where a get's CPU goes").
 *
 * What stays exact: each request still gets its own place in the key's count
 * (the leased points are a run of places the store has already counted), so
 * the window's total is never exceeded, on one instance or many, and on one
 * instance every decision and `remaining` is what counting each request in
 * the store would give. What a lease costs: points leased by one instance
 * count as used for the others, so with several instances a key can be
 * refused by one while another still holds points of the window; and points
 * still leased when the window ends were never used. Both are bounded by the
 * lease's size: at most a LEASE_SHARE-th of what the key had left when the
 * lease was taken, at most MAX_LEASE points, and none once fewer than
 * LEASE_SHARE remain, so near the limit every request goes to the store as
 * without leases. A refund (a 304) goes back to the lease when there is one.
 */

/** A lease is at most this share of the key's remaining points (1/32). */
export const LEASE_SHARE = 32;
/** And at most this many points. */
export const MAX_LEASE = 64;
/** Keys remembered before the ended windows are swept out. */
const MAX_KEYS = 10_000;

/** What an instance knows of a key in its current window: the store's count, and the leased places not yet used. */
interface KeyWindow {
  /** The store's count after this instance's last increment: the last leased place. */
  last: number;
  /** Leased places not yet used: the next request's count is `last - left + 1`. */
  left: number;
  /** When the window ends, by this process's clock. */
  endsAt: number;
}

export interface LeasedCounts {
  /**
   * The request's place in its key's count: from the lease when it has
   * points, else from the store (batched per turn). `points` is the key's
   * limit (its own, or the default), which bounds the size of a lease.
   */
  count(key: string, points?: number): Promise<CountedRequest>;
  /** Gives one point back to the key's lease; null when there is no lease of this window (the store must take it). */
  refund(key: string): CountedRequest | null;
}

/** Leased points for an increment, from what the instance last knew of the key (none once its window ended). */
function leaseSize(points: number, known: KeyWindow | undefined, now: number): number {
  // A live lease is never replaced (its places would be lost): requests queued before it came go to the store.
  if (!known || now >= known.endsAt || known.left > 0) return 0;
  return Math.min(MAX_LEASE, Math.floor(Math.max(0, points - known.last) / LEASE_SHARE));
}

/** What the instance knows of each key's window, by `now`: ended windows are forgotten. */
function keyWindows(now: () => number) {
  const windows = new Map<string, KeyWindow>();
  const current = (key: string, at: number): KeyWindow | undefined => {
    const known = windows.get(key);
    if (known && at >= known.endsAt) {
      windows.delete(key);
      return undefined;
    }
    return known;
  };
  return {
    current,
    clear(): void {
      if (windows.size > 0) windows.clear();
    },
    /** After an increment that leased `lease` places: its count, and the lease. */
    remember(key: string, after: StoreCount, lease: number): void {
      const at = now();
      const known = current(key, at);
      // An increment without a lease only updates what is known of the count: it must not drop a lease's places.
      if (lease === 0 && known && known.left > 0) return;
      windows.set(key, { last: after.consumedPoints, left: lease, endsAt: at + after.msBeforeNext });
      if (windows.size > MAX_KEYS) for (const [stale, window] of windows) if (at >= window.endsAt) windows.delete(stale);
    },
  };
}

/**
 * Wraps the store's atomic increment `add(key, points)` with leases and
 * per-turn batching (batch-limit-counts.ts). `now` is the clock (tests).
 */
export function leaseLimitCounts({ points, add, canLease = () => true, now = Date.now }: {
  points: number;
  add: (key: string, points: number) => Promise<StoreCount>;
  /** False while the store counts elsewhere than usual (Redis down): no lease then, and those held are dropped. */
  canLease?: () => boolean;
  now?: () => number;
}): LeasedCounts {
  const windows = keyWindows(now);
  /** The limit of each key with one of its own, as its last request gave it (the lease's bound). */
  const limits = new Map<string, number>();

  // Keys whose increment with a lease is on its way: one at a time, so a second lease never supersedes the first.
  const leasing = new Set<string>();

  const batched = batchLimitCounts({
    add: async (key, requests) => {
      const lease = leasing.has(key) || !canLease() ? 0 : leaseSize(limits.get(key) ?? points, windows.current(key, now()), now());
      if (lease > 0) leasing.add(key);
      try {
        const after = await add(key, requests + lease);
        // The lease is the last `lease` places of this increment; the requests of the batch take the ones before.
        // A count from elsewhere than the usual store (Redis down) says nothing of the key's count there.
        if (canLease()) windows.remember(key, after, lease);
        return { consumedPoints: after.consumedPoints - lease, msBeforeNext: after.msBeforeNext };
      } finally {
        if (lease > 0) leasing.delete(key);
      }
    },
  });

  const placeIn = (window: KeyWindow, at: number): CountedRequest => ({ count: window.last - window.left, msBeforeNext: window.endsAt - at });

  return {
    count(key, own = points) {
      if (own === points) limits.delete(key);
      else {
        if (limits.size >= 10_000) limits.clear();
        limits.set(key, own);
      }
      if (!canLease()) {
        // Leased places belong to the counter they came from; while it is away, counting goes where the store sends it.
        windows.clear();
        return batched(key);
      }
      const at = now();
      const window = windows.current(key, at);
      if (!window || window.left === 0) return batched(key);
      window.left -= 1;
      return Promise.resolve(placeIn(window, at));
    },
    refund(key) {
      const at = now();
      const window = windows.current(key, at);
      // Only into a live lease, and bounded like one; otherwise (near the limit too) the store takes the point back.
      if (!window || window.left === 0 || window.left >= MAX_LEASE) return null;
      window.left += 1;
      return placeIn(window, at);
    },
  };
}
