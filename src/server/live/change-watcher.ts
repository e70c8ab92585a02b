import type { Knex } from 'knex';
import type { ChangesProbe } from '../../engine/compile/changes-probe.ts';
import { probeChanges, type ProbeResult } from '../../db/live/probe-changes.ts';
import { finishedIn, type Snapshot } from '../../engine/compile/snapshot-text.ts';

/** A request waiting for a change of one brand of the watcher's family. */
export interface Waiter {
  readonly brandId: string;
  /** Its token's snapshot: a change it did not see is one its batch would return. */
  readonly since: Snapshot;
  /** The TRUNCATEs its token already saw (in its copy); any other at or above its `xmin` wakes it (its read is a 410). */
  readonly seen: ReadonlySet<bigint>;
  /** Called once, when a probe saw such a change: read no older a copy than `mark`. */
  wake(mark: string | null): void;
}

/** What the last probe of a brand said: its newest version then, its truncations, and the probe's snapshot and time. */
export interface BrandKnowledge {
  readonly version: bigint | null;
  readonly truncations: readonly bigint[];
  readonly snapshot: Snapshot;
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
      const knowledge = { version, truncations: result.truncations.get(brandId) ?? [], snapshot: result.snapshot, at: result.at, mark: result.mark };
      known.set(brandId, knowledge);
      const woken = [...(waiters.get(brandId) ?? [])].filter((waiter) => hasChanged(knowledge, waiter));
      for (const waiter of woken) {
        remove(waiter);
        waiter.wake(result.mark);
      }
    }
  };
  const tick = async (): Promise<void> => {
    timer = null;
    if (waiters.size === 0 || closed) return;
    probing = true;
    try {
      learn(await probeChanges({ db, probe, brandIds: [...waiters.keys()], since: oldestSince(waiters), withMark }));
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

/**
 * Whether what a probe learned is news to a token's snapshot `since`
 * (changes-probe.ts): a version at or above its `xmax`, a transaction it saw
 * in progress that has finished since, or a TRUNCATE it has not seen.
 */
export function hasChanged(known: BrandKnowledge, { since, seen }: { since: Snapshot; seen: ReadonlySet<bigint> }): boolean {
  return (known.version !== null && known.version >= since.xmax)
    || since.xip.some((xid) => finishedIn(known.snapshot, xid))
    || known.truncations.some((id) => id >= since.xmin && !seen.has(id));
}

/** The oldest token waited on: the probe lists no truncation older than it. */
function oldestSince(waiters: ReadonlyMap<string, ReadonlySet<Waiter>>): bigint {
  let least: bigint | null = null;
  for (const set of waiters.values()) for (const waiter of set) if (least === null || waiter.since.xmin < least) least = waiter.since.xmin;
  return least ?? 0n;
}
