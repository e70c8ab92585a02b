import type { Knex } from 'knex';
import { findGrant, hashKey, type KeyGrant } from './api-keys.ts';
import type { GrantPair } from './find-grants.ts';
import { startGrantRefresh, type GrantRefresh, type RefreshedCache, type RefreshOptions } from './grant-refresh.ts';

/**
 * Key lookups kept in process for `ttlMs`, so that a request with a known
 * key and brand costs no database round trip. With `refresh` (the server
 * always has it), the grants in use are read again before they expire, all
 * together (grant-refresh.ts): every half TTL one statement re-reads each
 * entry that would expire before the next round and that a request used
 * (a lookup counts) within the in-use window: two minutes, or the TTL if
 * longer, so the followers of live changes (CONTRACT.md §7), which call
 * again at most 60 s apart and, woken by the same commit, in bursts, keep
 * their key fresh. So N keys in use cost one statement per half TTL, not N
 * lookups per TTL. An entry nobody used for the window is left to expire
 * (then the next request looks it up); a key the database no longer finds
 * live (revoked, expired) and a grant whose brand is gone drop out at the
 * round that reads them. Requests that miss the same entry together share
 * one lookup.
 * What may make a cached grant wrong, and what bounds it:
 * - revocation: `revokeKey` notifies every instance (Postgres NOTIFY) and each
 *   drops the key at once (`forgetKey`); while an instance cannot listen, it
 *   does not cache. A lookup or a refresh that started before a forget
 *   stores nothing (`generation`);
 * - expiry: a grant carries its key's expiry and is not used past it, refreshed or not;
 * - anything else (a brand renamed or removed by the database's writer): at
 *   most `ttlMs`, since the entry's last read (a refreshed entry is read again).
 * Failed lookups are never cached (a new key works at once; failures are
 * limited per client, authenticate.ts), nor grants for a slug that names no
 * brand. A failed refresh round stores nothing: its entries expire as usual.
 */
export interface KeyCache {
  /** The grant for a key and a brand slug: from the cache when fresh, otherwise from the database. */
  lookup(db: Knex, request: { key: string; brandSlug: string | null }): Promise<KeyGrant | null>;
  /** The fresh cached grant for a key and a brand slug, or null; never asks the database. */
  cached(request: { key: string; brandSlug: string | null }): KeyGrant | null;
  /** Forgets every grant of a key (it was revoked). */
  forgetKey(keyId: string): void;
  /** Stops (false) or resumes (true) caching; both forget everything. */
  setEnabled(enabled: boolean): void;
  /** Stops the refresh rounds (waiting for one in flight); the cache still answers until its entries expire. */
  close(): Promise<void>;
  readonly size: number;
}

interface Entry extends GrantPair {
  readonly grant: KeyGrant;
  /** When the entry stops being used: its TTL or the key's expiry, whichever is first (ms since the epoch). */
  readonly until: number;
  /** When a request last used it, its lookup included (ms since the epoch): only an entry used within the in-use window is refreshed. */
  lastUsed: number;
}

/**
 * An entry is due when less than three quarters of its TTL is left: it would
 * expire before the next round (rounds are half a TTL apart), even if that
 * round came a quarter TTL late. One refreshed at a round is due at the next.
 */
const DUE_WITHIN = 0.75;

/** The least in-use window: twice the longest wait of a live-changes call (60 s), so a follower's key stays fresh between its calls. */
export const MIN_IN_USE_MS = 120_000;

/** What the cache's methods share. */
interface CacheState {
  readonly entries: Map<string, Entry>;
  readonly ttlMs: number;
  /** How recently an entry must have been used to be refreshed. */
  readonly inUseMs: number;
  readonly now: () => number;
  enabled: boolean;
  /** Bumped by every forget: a lookup or refresh that started before a revocation must not store what it read. */
  generation: number;
}

const cacheKeyOf = ({ keyHash, brandSlug }: GrantPair): string => `${keyHash}\u0000${brandSlug ?? ''}`;
const pairOf = (key: string, brandSlug: string | null): GrantPair => ({ keyHash: hashKey(key), brandSlug });

/** The fresh grant of a pair (its use noted), or null; an expired entry goes. */
function fresh({ entries, now }: CacheState, pair: GrantPair): KeyGrant | null {
  const cacheKey = cacheKeyOf(pair);
  const hit = entries.get(cacheKey);
  const at = now();
  if (hit && hit.until > at) {
    hit.lastUsed = at;
    return hit.grant;
  }
  if (hit) entries.delete(cacheKey);
  return null;
}

/** The refresh's view of the entries (grant-refresh.ts). */
function refreshedCache(state: CacheState, store: (pair: GrantPair, grant: KeyGrant, lastUsed: number) => void): RefreshedCache {
  const { entries, ttlMs, inUseMs, now } = state;
  return {
    due() {
      const at = now();
      const due: GrantPair[] = [];
      for (const [cacheKey, entry] of entries) {
        if (entry.until <= at) entries.delete(cacheKey);
        else if (entry.lastUsed > at - inUseMs && entry.until - at < ttlMs * DUE_WITHIN) due.push({ keyHash: entry.keyHash, brandSlug: entry.brandSlug });
      }
      return due;
    },
    generation: () => state.generation,
    active: () => state.enabled && entries.size > 0,
    settle(pairs, grants) {
      pairs.forEach((pair, i) => {
        // Only entries still held: one dropped meanwhile (expired, evicted) is not brought back.
        const held = entries.get(cacheKeyOf(pair));
        if (!held) return;
        const grant = grants[i];
        if (grant?.brand) store(pair, grant, held.lastUsed);
        else entries.delete(cacheKeyOf(pair));
      });
    },
  };
}

export function createKeyCache({ ttlMs, inUseMs = Math.max(ttlMs, MIN_IN_USE_MS), maxEntries = 10_000, now = Date.now, refresh }: {
  ttlMs: number;
  /** How recently an entry must have been used to be refreshed (default: MIN_IN_USE_MS, or the TTL if longer). */
  inUseMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Refresh-ahead of the grants in use; without it, entries just expire. */
  refresh?: RefreshOptions;
}): KeyCache {
  const state: CacheState = { entries: new Map(), ttlMs, inUseMs, now, enabled: ttlMs > 0, generation: 0 };
  const { entries } = state;
  /** Lookups under way, by entry: requests that miss the same entry together share one. */
  const pending = new Map<string, Promise<KeyGrant | null>>();
  const store = (pair: GrantPair, grant: KeyGrant, lastUsed = now()): void => {
    const cacheKey = cacheKeyOf(pair);
    if (!entries.has(cacheKey) && entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    const expires = grant.expiresAt === null ? Infinity : Date.parse(grant.expiresAt);
    entries.set(cacheKey, { ...pair, grant, until: Math.min(now() + ttlMs, expires), lastUsed });
    refresher?.wake();
  };
  const refresher: GrantRefresh | null = refresh && ttlMs > 0
    ? startGrantRefresh({ ...refresh, intervalMs: refresh.intervalMs ?? ttlMs / 2, cache: refreshedCache(state, store) })
    : null;

  return {
    cached({ key, brandSlug }) {
      return state.enabled ? fresh(state, pairOf(key, brandSlug)) : null;
    },
    async lookup(db, { key, brandSlug }) {
      if (!state.enabled) return findGrant(db, { key, brandSlug });
      const pair = pairOf(key, brandSlug);
      const hit = fresh(state, pair);
      if (hit) return hit;
      const cacheKey = cacheKeyOf(pair);
      let shared = pending.get(cacheKey);
      if (!shared) {
        const startedAt = state.generation;
        shared = findGrant(db, { key, brandSlug }).then((grant) => {
          if (grant && grant.brand && state.enabled && state.generation === startedAt) store(pair, grant);
          return grant;
        }).finally(() => pending.delete(cacheKey));
        pending.set(cacheKey, shared);
      }
      return shared;
    },
    forgetKey(keyId) {
      state.generation += 1;
      for (const [cacheKey, entry] of entries) if (entry.grant.keyId === keyId) entries.delete(cacheKey);
    },
    setEnabled(value) {
      state.generation += 1;
      entries.clear();
      state.enabled = value && ttlMs > 0;
    },
    close: async () => refresher?.stop(),
    get size() {
      return entries.size;
    },
  };
}
