import type { Knex } from 'knex';
import type { ChangesProbe } from '../../engine/compile/changes-probe.ts';
import { probeChanges, type ProbeResult } from '../../db/live/probe-changes.ts';

/** A request waiting for a change of one brand of the watcher's family. */
export interface Waiter {
  readonly brandId: string;
  /** Its token's xmin: a change of this version or newer is one its batch would return. */
  readonly since: bigint;
  /**
   * Called once, when a probe saw such a change: read no older a copy than
   * `mark`, from `floor`, the oldest token among the brand's waiters woken by
   * the same probe (so they can share one read: a batch from an older token
   * holds every change of a newer one).
   */
  wake(mark: string | null, floor: bigint): void;
}

/** What the last probe of a brand said: its newest version then, and the probe's xmin and time. */
export interface BrandKnowledge {
  readonly version: bigint | null;
  readonly xmin: bigint;
  readonly at: number;
  readonly mark: string | null;
}

export interface ChangeWatcher {
  /** Starts watching for `waiter`; returns the function that stops it (idempotent). */
  add(waiter: Waiter): () => void;
  /** The last probe's answer for the brand, or null when no probe asked about it yet. */
  knowledge(brandId: string): BrandKnowledge | null;
  close(): void;
}

/**
 * One family's watcher (CONTRACT.md §7): while anyone waits, every
 * `intervalMs` one probe asks the primary about every brand someone waits
 * on, and wakes the waiters whose token a committed change reached. Its
 * cost is one statement per tick, whatever the number of waiters; with no
 * waiter it does nothing. A probe that fails is logged and tried again next
 * tick: the waiters wait on (at worst until their time is up).
 */
export function createChangeWatcher({ db, probe, intervalMs, withMark, onError }: {
  db: Knex;
  probe: ChangesProbe;
  intervalMs: number;
  withMark: boolean;
  onError: (error: Error) => void;
}): ChangeWatcher {
  const waiters = new Map<string, Set<Waiter>>();
  const known = new Map<string, BrandKnowledge>();
  let timer: NodeJS.Timeout | null = null;
  let probing = false;
  let closed = false;

  const learn = (result: ProbeResult): void => {
    for (const [brandId, version] of result.versions) {
      known.set(brandId, { version, xmin: result.xmin, at: result.at, mark: result.mark });
      const woken = [...(waiters.get(brandId) ?? [])].filter((waiter) => version !== null && version >= waiter.since);
      const floor = woken.reduce((least, waiter) => (waiter.since < least ? waiter.since : least), version ?? 0n);
      for (const waiter of woken) {
        remove(waiter);
        waiter.wake(result.mark, floor);
      }
    }
  };
  const tick = async (): Promise<void> => {
    timer = null;
    if (waiters.size === 0 || closed) return;
    probing = true;
    try {
      learn(await probeChanges({ db, probe, brandIds: [...waiters.keys()], withMark }));
    } catch (error) {
      onError(error as Error);
    } finally {
      probing = false;
    }
    schedule();
  };
  const schedule = (): void => {
    if (timer === null && !probing && !closed && waiters.size > 0) timer = setTimeout(() => void tick(), intervalMs);
  };
  const remove = (waiter: Waiter): void => {
    const set = waiters.get(waiter.brandId);
    if (!set?.delete(waiter)) return;
    if (set.size === 0) waiters.delete(waiter.brandId);
  };
  return {
    add(waiter) {
      if (!waiters.has(waiter.brandId)) waiters.set(waiter.brandId, new Set());
      waiters.get(waiter.brandId)!.add(waiter);
      schedule();
      return () => remove(waiter);
    },
    knowledge: (brandId) => known.get(brandId) ?? null,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      waiters.clear();
    },
  };
}
