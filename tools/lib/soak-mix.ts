import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import type { SoakKey } from './soak-database.ts';

/**
 * The soak's traffic: a steady mix over every non-tenant family, every key
 * and every brand a key may read. It learns from the answers (ids from first
 * pages, cursors, ETags) so later requests read by id, follow cursors a few
 * pages deep and ask conditionally. Each request says which status it
 * expects; 404s and 400s are asked for on purpose.
 */
export type SoakKind = 'list' | 'list-limit' | 'list-filter' | 'list-include' | 'get' | 'next-page' | 'conditional' | 'not-found' | 'bad-request';

export interface SoakRequest {
  readonly kind: SoakKind;
  /** Path and query under the origin. */
  readonly path: string;
  readonly key: SoakKey;
  readonly brand: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly expect: number;
  /** Page number of a cursor walk (1 for a first page). */
  readonly depth: number;
}

export interface SoakMix {
  next(): SoakRequest;
  /** Feeds an answer back: a 200's body and ETag teach ids, cursors and conditional requests. */
  learn(request: SoakRequest, answer: { status: number; etag: string | null; body: string }): void;
}

/** Shares of each kind, in percent; plain lists come up when a kind has nothing to work on yet. */
export const KIND_WEIGHTS: Readonly<Record<SoakKind, number>> = Object.freeze({
  list: 20,
  'list-limit': 10,
  'list-filter': 10,
  'list-include': 10,
  get: 20,
  'next-page': 10,
  conditional: 15,
  'not-found': 3,
  'bad-request': 2,
});

const MAX_DEPTH = 4;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const SINCE = '2026-01-01T00:00:00Z';

/** A small seeded generator (mulberry32): the same run sends the same mix. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Known {
  ids: string[];
  first: Record<string, unknown> | null;
}

/** Bounded memory of its own: the soak must not be the thing that grows. */
const MAX_ETAGS = 2000;
const MAX_CURSORS = 500;

export function createSoakMix({ registry, keys, seed = 20260307 }: { registry: Registry; keys: readonly SoakKey[]; seed?: number }): SoakMix {
  const families = registry.resources.filter((resource) => resource.scope !== 'tenant');
  const targets = keys.flatMap((key) => key.brands.map((brand) => ({ key, brand })));
  if (families.length === 0 || targets.length === 0) throw new Error('the soak needs at least one family and one key');
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const kinds = Object.entries(KIND_WEIGHTS) as [SoakKind, number][];
  const totalWeight = kinds.reduce((sum, [, w]) => sum + w, 0);
  const known = new Map<string, Known>();
  const etags = new Map<string, { brand: string; path: string; etag: string }>();
  const cursors: { brand: string; key: SoakKey; path: string; depth: number }[] = [];
  let counter = 0;

  const base = (brand: string, family: Resource): string => `${API_BASE_PATH}/brands/${brand}/${family.path}`;
  const build = (kind: SoakKind, target: { key: SoakKey; brand: string }, path: string, extra: Partial<SoakRequest> = {}): SoakRequest =>
    Object.freeze({ kind, path, key: target.key, brand: target.brand, headers: {}, expect: 200, depth: 1, ...extra });

  function filterQuery(family: Resource, brand: string): string | null {
    const first = known.get(`${brand}/${family.path}`)?.first;
    if (first) {
      for (const filter of family.filters) {
        const target = filter.targets[0];
        if (filter.match !== 'exact' || filter.targets.length !== 1 || !target || target.join !== null) continue;
        const value = first[target.label];
        if (typeof value === 'string' && value.length > 0 && value.length < 200) return `${encodeURIComponent(filter.name)}=${encodeURIComponent(value)}`;
      }
    }
    const since = family.filters.find((filter) => filter.match === 'since');
    return since ? `${since.name}=${encodeURIComponent(SINCE)}` : null;
  }

  function chooseKind(): SoakKind {
    let roll = rand() * totalWeight;
    for (const [kind, weight] of kinds) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return 'list';
  }

  return {
    next() {
      const target = targets[counter % targets.length]!;
      const family = families[Math.floor(counter / targets.length) % families.length]!;
      counter += 1;
      const path = base(target.brand, family);
      const kind = chooseKind();
      switch (kind) {
        case 'list-limit':
          return build(kind, target, `${path}?limit=${pick([1, 5, 10, 50, 100])}`);
        case 'list-filter': {
          const query = filterQuery(family, target.brand);
          if (query) return build(kind, target, `${path}?${query}&limit=10`);
          break;
        }
        case 'list-include': {
          const include = family.includes.length > 0 ? pick(family.includes) : null;
          if (include) return build(kind, target, `${path}?include=${include.name}&limit=10`);
          break;
        }
        case 'get': {
          const ids = known.get(`${target.brand}/${family.path}`)?.ids ?? [];
          if (ids.length > 0) return build(kind, target, `${path}/${pick(ids)}`);
          break;
        }
        case 'next-page': {
          const cursor = cursors.pop(); // the newest first, so walks go on deeper
          if (cursor) return build(kind, cursor, cursor.path, { depth: cursor.depth });
          break;
        }
        case 'conditional': {
          if (etags.size > 0) {
            const entries = [...etags.values()];
            const entry = pick(entries);
            const reader = pick(targets.filter((t) => t.brand === entry.brand));
            return build(kind, reader, entry.path, { headers: { 'If-None-Match': entry.etag }, expect: 304 });
          }
          break;
        }
        case 'not-found':
          return build(kind, target, `${path}/${MISSING_ID}`, { expect: 404 });
        case 'bad-request':
          return build(kind, target, `${path}?limit=0`, { expect: 400 });
        case 'list':
          break;
      }
      return build('list', target, path);
    },

    learn(request, { status, etag, body }) {
      if (status !== 200) return;
      if (etag && (request.kind === 'list' || request.kind === 'get' || request.kind === 'list-limit')) {
        const id = `${request.brand}|${request.path}`;
        if (etags.has(id) || etags.size < MAX_ETAGS) etags.set(id, { brand: request.brand, path: request.path, etag });
      }
      if (request.kind === 'get' || request.kind === 'conditional') return;
      let page: { items?: Record<string, unknown>[]; nextCursor?: string | null };
      try {
        page = JSON.parse(body) as typeof page;
      } catch {
        return;
      }
      if (request.kind === 'list') {
        const familyPath = request.path.slice(`${API_BASE_PATH}/brands/${request.brand}/`.length).split('?')[0]!;
        const items = page.items ?? [];
        known.set(`${request.brand}/${familyPath}`, {
          ids: items.slice(0, 10).map((item) => item.id).filter((id): id is string => typeof id === 'string'),
          first: items[0] ?? null,
        });
      }
      if (page.nextCursor && request.depth < MAX_DEPTH) {
        if (cursors.length >= MAX_CURSORS) cursors.shift();
        const [pathname, query = ''] = request.path.split('?');
        const params = new URLSearchParams(query);
        params.set('cursor', page.nextCursor);
        cursors.push({ brand: request.brand, key: request.key, path: `${pathname}?${params}`, depth: request.depth + 1 });
      }
    },
  };
}
