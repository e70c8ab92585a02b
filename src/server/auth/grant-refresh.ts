import type { Knex } from 'knex';
import type { KeyGrant } from './api-keys.ts';
import { findGrants, type GrantPair } from './find-grants.ts';

/** Where and how the key cache re-reads the grants in use before they expire. */
export interface RefreshOptions {
  /** The database grants are read from (the primary: where keys are revoked). */
  readonly db: Knex;
  /** Told of a failed round, once per streak of failures (the next success ends it). */
  readonly onError: (error: Error) => void;
  /** Real milliseconds between rounds: half the TTL, unless a test with its own clock shortens it. */
  readonly intervalMs?: number;
}

/** What a round needs of the cache. */
export interface RefreshedCache {
  /** The pairs worth reading again now: in use, and expiring before the next round. */
  due(): GrantPair[];
  /** Bumped by every forget: a round that saw it move stores nothing (it may have read a revoked key as live). */
  generation(): number;
  /** Whether anything is cached (and the cache is on); when not, no round is scheduled. */
  active(): boolean;
  /** A round's answers, one per pair in order: a grant replaces its entry, null drops it. */
  settle(pairs: readonly GrantPair[], grants: readonly (KeyGrant | null)[]): void;
}

export interface GrantRefresh {
  /** Something was cached: schedules the next round if none is. */
  wake(): void;
  /** No more rounds; waits for one in flight. */
  stop(): Promise<void>;
}

/**
 * Refresh-ahead for the key cache: every `intervalMs` (unref'd, so it never
 * holds the process open), the grants that are due are read again together,
 * in one statement (`findGrants`), however many keys are in use. A round that
 * fails stores nothing: the entries expire as they would have, and each is
 * then looked up again alone.
 */
export function startGrantRefresh({ db, onError, intervalMs, cache }: RefreshOptions & { intervalMs: number; cache: RefreshedCache }): GrantRefresh {
  let timer: NodeJS.Timeout | null = null;
  // From a round's scheduling until it is over: at most one round at a time.
  let scheduled = false;
  let stopped = false;
  let failing = false;
  let running: Promise<void> = Promise.resolve();

  const round = async (): Promise<void> => {
    const pairs = cache.due();
    if (pairs.length === 0) return;
    const startedAt = cache.generation();
    try {
      const grants = await findGrants(db, pairs);
      failing = false;
      if (!stopped && cache.generation() === startedAt) cache.settle(pairs, grants);
    } catch (error) {
      if (!failing && !stopped) onError(error as Error);
      failing = true;
    }
  };
  const schedule = (): void => {
    timer = null;
    scheduled = !stopped && cache.active();
    if (!scheduled) return;
    timer = setTimeout(() => {
      running = round().then(schedule, schedule);
    }, intervalMs);
    timer.unref();
  };

  return {
    wake() {
      if (!scheduled) schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
