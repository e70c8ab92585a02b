import type { Knex } from 'knex';
import type { ChangesProbe } from '../../engine/compile/changes-probe.ts';
import { probeChanges, type ProbeResult } from '../../db/live/probe-changes.ts';
import { finishedIn, snapshotText, type Snapshot } from '../../engine/compile/snapshot-text.ts';
import { createClearedIds } from './cleared-ids.ts';

/** A request waiting for a change of one brand of the watcher's family. */
export interface Waiter {
  readonly brandId: string;
  /** Its token's snapshot: a change it did not see is one its batch would return. */
  readonly since: Snapshot;
  /** The TRUNCATEs its token already saw (in its copy); any other at or above its `xmin` wakes it (its read is a 410). */
  readonly seen: ReadonlySet<bigint>;
  /** Called once, when a probe saw such a change: read no older a copy than `mark`. */
  wake(mark: string | null): void;
  /** Its token as `tokenKey` writes it, when the caller has it already (the waits of one token share it). */
  readonly token?: string;
}

/** What the last probe of a brand said: its newest version then, its truncations, and the probe's snapshot and time. */
export interface BrandKnowledge {
  readonly version: bigint | null;
  readonly truncations: readonly bigint[];
  /** The probe listed the truncations at or above this: it cannot tell a token older than it unchanged. */
  readonly truncationsFrom: bigint;
  /**
   * Ids some waiter's token saw in progress that have finished having written
   * nothing of the brand (committed without a stamp of it, or rolled back):
   * their end is no news to the brand. A finished id not in it is news.
   */
  readonly cleared: ReadonlySet<bigint>;
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
  // Per brand, the waiters grouped by token: a brand's followers mostly hold the same one, so a probe asks once per token, not once per waiter.
  const brands: Groups = new Map();
  const known = new Map<string, BrandKnowledge>();
  const cleared = createClearedIds();
  let timer: NodeJS.Timeout | null = null;
  let probing = false;
  let closed = false;

  const learn = (result: ProbeResult, asked: ReadonlyMap<string, readonly bigint[]>): void => {
    for (const brandId of result.versions.keys()) {
      const knowledge = knowledgeOf(result, brandId, cleared.learn(brandId, asked.get(brandId), result));
      known.set(brandId, knowledge);
      const groups = brands.get(brandId);
      if (groups && wakeNews(groups, knowledge) > 0) cleared.keep(brandId, groups);
      else {
        brands.delete(brandId);
        cleared.forget(brandId);
      }
    }
  };
  const tick = async (): Promise<void> => {
    timer = null;
    if (brands.size === 0 || closed) return;
    probing = true;
    try {
      const running = cleared.asking(brands);
      learn(await probeChanges({ db, probe, brandIds: [...brands.keys()], since: oldestSince(brands), running, withMark }), running);
    } catch (error) {
      onError(error as Error);
    } finally {
      probing = false;
    }
    schedule();
  };
  const schedule = (): void => {
    if (timer === null && !probing && !closed && brands.size > 0) timer = setTimeout(() => void tick(), intervalMs);
  };
  return {
    add(waiter) {
      const token = addToGroup(brands, waiter);
      schedule();
      return () => {
        if (removeFromGroup(brands, waiter, token)) cleared.forget(waiter.brandId);
      };
    },
    knowledge: (brandId) => known.get(brandId) ?? null,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      brands.clear();
    },
  };
}

/** What a probe learned of one brand, with the ids it knows ended having written nothing of it. */
function knowledgeOf(result: ProbeResult, brandId: string, cleared: ReadonlySet<bigint>): BrandKnowledge {
  return {
    version: result.versions.get(brandId) ?? null, truncations: result.truncations.get(brandId) ?? [], truncationsFrom: result.since, cleared,
    snapshot: result.snapshot, at: result.at, mark: result.mark,
  };
}

/** The waiters of one brand that hold the same token: what wakes one wakes all. */
interface TokenGroup {
  readonly since: Snapshot;
  readonly seen: ReadonlySet<bigint>;
  readonly waiters: Set<Waiter>;
}

type Groups = Map<string, Map<string, TokenGroup>>;

/** Puts `waiter` in its brand's group for its token; returns the token. */
function addToGroup(brands: Groups, waiter: Waiter): string {
  const token = waiter.token ?? tokenKey(waiter);
  let groups = brands.get(waiter.brandId);
  if (!groups) brands.set(waiter.brandId, (groups = new Map()));
  let group = groups.get(token);
  if (!group) groups.set(token, (group = { since: waiter.since, seen: waiter.seen, waiters: new Set() }));
  group.waiters.add(waiter);
  return token;
}

/** Takes `waiter` out of its group (nothing when it is no longer there), and drops what that leaves empty; true when that was the brand's last. */
function removeFromGroup(brands: Groups, waiter: Waiter, token: string): boolean {
  const groups = brands.get(waiter.brandId);
  const group = groups?.get(token);
  if (!group?.waiters.delete(waiter)) return false;
  if (group.waiters.size > 0) return false;
  groups!.delete(token);
  if (groups!.size > 0) return false;
  brands.delete(waiter.brandId);
  return true;
}

/** Wakes the groups of one brand that `knowledge` is news to, and drops them; returns how many groups are left. */
function wakeNews(groups: Map<string, TokenGroup>, knowledge: BrandKnowledge): number {
  for (const [token, group] of groups) {
    if (!hasChanged(knowledge, group)) continue;
    groups.delete(token);
    for (const waiter of group.waiters) waiter.wake(knowledge.mark);
  }
  return groups.size;
}

/** What decides whether news wakes a waiter: its snapshot and the truncations it saw. */
export const tokenKey = ({ since, seen }: Pick<Waiter, 'since' | 'seen'>): string => `${snapshotText(since)}|${[...seen].sort().join(',')}`;

/**
 * Whether what a probe learned is news to a token's snapshot `since`
 * (changes-probe.ts): a version at or above its `xmax`, a transaction it saw
 * in progress that has finished since unless it wrote nothing of the brand,
 * or a TRUNCATE it has not seen. A token older than the truncations the
 * probe listed (one that was not waiting then) is never told unchanged.
 */
export function hasChanged(known: BrandKnowledge, { since, seen }: { since: Snapshot; seen: ReadonlySet<bigint> }): boolean {
  return since.xmin < known.truncationsFrom
    || (known.version !== null && known.version >= since.xmax)
    || since.xip.some((xid) => finishedIn(known.snapshot, xid) && !known.cleared.has(xid))
    || known.truncations.some((id) => id >= since.xmin && !seen.has(id));
}

/** The oldest token waited on: the probe lists no truncation older than it. */
function oldestSince(brands: ReadonlyMap<string, ReadonlyMap<string, TokenGroup>>): bigint {
  let least: bigint | null = null;
  for (const groups of brands.values()) for (const { since } of groups.values()) if (least === null || since.xmin < least) least = since.xmin;
  return least ?? 0n;
}
