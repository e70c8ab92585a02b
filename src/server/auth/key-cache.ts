import type { Knex } from 'knex';
import { findGrant, hashKey, type KeyGrant } from './api-keys.ts';

/**
 * Key lookups kept in process for a short while, so that a request with a
 * known key and brand costs no database round trip. What may make a cached
 * grant wrong, and what bounds it:
 * - revocation: `revokeKey` notifies every instance (Postgres NOTIFY) and each
 *   drops the key at once; while an instance cannot listen, it does not cache;
 * - expiry: a grant carries its key's expiry and is not used past it;
 * - anything else (a brand renamed or removed by the database's writer): at
 *   most `ttlMs`.
 * Failed lookups are never cached (a new key works at once; failures are
 * limited per client, authenticate.ts), nor grants for a slug that names no
 * brand.
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
  readonly size: number;
}

interface Entry {
  readonly grant: KeyGrant;
  /** When the entry stops being used: its TTL or the key's expiry, whichever is first (ms since the epoch). */
  readonly until: number;
}

export function createKeyCache({ ttlMs, maxEntries = 10_000, now = Date.now }: { ttlMs: number; maxEntries?: number; now?: () => number }): KeyCache {
  const entries = new Map<string, Entry>();
  let enabled = ttlMs > 0;
  // Bumped by every forget: a lookup that started before a revocation must not store what it read.
  let generation = 0;

  const cacheKeyOf = (key: string, brandSlug: string | null): string => `${hashKey(key)}\u0000${brandSlug ?? ''}`;
  const fresh = (cacheKey: string): KeyGrant | null => {
    const hit = entries.get(cacheKey);
    if (hit && hit.until > now()) return hit.grant;
    if (hit) entries.delete(cacheKey);
    return null;
  };

  return {
    cached({ key, brandSlug }) {
      return enabled ? fresh(cacheKeyOf(key, brandSlug)) : null;
    },
    async lookup(db, { key, brandSlug }) {
      if (!enabled) return findGrant(db, { key, brandSlug });
      const cacheKey = cacheKeyOf(key, brandSlug);
      const hit = fresh(cacheKey);
      if (hit) return hit;
      const startedAt = generation;
      const grant = await findGrant(db, { key, brandSlug });
      if (grant && grant.brand && enabled && generation === startedAt) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        const expires = grant.expiresAt === null ? Infinity : Date.parse(grant.expiresAt);
        entries.set(cacheKey, { grant, until: Math.min(now() + ttlMs, expires) });
      }
      return grant;
    },
    forgetKey(keyId) {
      generation += 1;
      for (const [cacheKey, entry] of entries) if (entry.grant.keyId === keyId) entries.delete(cacheKey);
    },
    setEnabled(value) {
      generation += 1;
      entries.clear();
      enabled = value && ttlMs > 0;
    },
    get size() {
      return entries.size;
    },
  };
}
