import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import type { SoakKey } from './soak-database.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import { createSoakKnowledge, type SoakKnowledge } from './soak-knowledge.ts';
import { soakRequest, type SoakKind, type SoakRequest, type SoakTarget } from './soak-request.ts';

/**
 * The soak's traffic: a steady mix over every non-tenant family, every key
 * and every brand a key may read. It learns from the answers (ids from first
 * pages, cursors, ETags) so later requests read by id, follow cursors a few
 * pages deep and ask conditionally. Each request says which status it
 * expects; 404s and 400s are asked for on purpose.
 */
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

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const SINCE = '2026-01-01T00:00:00Z';

export function createSoakMix({ registry, keys, seed = 20260307 }: { registry: Registry; keys: readonly SoakKey[]; seed?: number }): SoakMix {
  const families = registry.resources.filter((resource) => resource.scope !== 'tenant');
  const targets = keys.flatMap((key) => key.brands.map((brand) => ({ key, brand })));
  if (families.length === 0 || targets.length === 0) throw new Error('the soak needs at least one family and one key');
  const rand = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const kinds = Object.entries(KIND_WEIGHTS) as [SoakKind, number][];
  const totalWeight = kinds.reduce((sum, [, w]) => sum + w, 0);
  const chooseKind = (): SoakKind => {
    let roll = rand() * totalWeight;
    for (const [kind, weight] of kinds) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return 'list';
  };
  const knowledge = createSoakKnowledge();
  let counter = 0;
  return {
    next() {
      const target = targets[counter % targets.length]!;
      const family = families[Math.floor(counter / targets.length) % families.length]!;
      counter += 1;
      const path = `${API_BASE_PATH}/brands/${target.brand}/${family.path}`;
      const kind = chooseKind();
      return requestOfKind({ kind, target, family, path, knowledge, targets, pick }) ?? soakRequest('list', target, path);
    },
    learn: (request, answer) => knowledge.learn(request, answer),
  };
}

/** A request of `kind` for the family at `path`, or null when the kind has nothing to work on yet (nothing learned, no filter). */
function requestOfKind({ kind, target, family, path, knowledge, targets, pick }: {
  kind: SoakKind;
  target: SoakTarget;
  family: Resource;
  path: string;
  knowledge: SoakKnowledge;
  targets: readonly SoakTarget[];
  pick: <T>(list: readonly T[]) => T;
}): SoakRequest | null {
  switch (kind) {
    case 'list-limit':
      return soakRequest(kind, target, `${path}?limit=${pick([1, 5, 10, 50, 100])}`);
    case 'list-filter': {
      const query = filterQuery(family, knowledge.known(target.brand, family.path)?.first ?? null);
      return query ? soakRequest(kind, target, `${path}?${query}&limit=10`) : null;
    }
    case 'list-include': {
      const include = family.includes.length > 0 ? pick(family.includes) : null;
      return include ? soakRequest(kind, target, `${path}?include=${include.name}&limit=10`) : null;
    }
    case 'get': {
      const ids = knowledge.known(target.brand, family.path)?.ids ?? [];
      if (ids.length > 0) return soakRequest(kind, target, `${path}/${pick(ids)}`);
      // Nothing learned of this family yet (a short soak meets each family once, before its first answer is back):
      // read by id in a family of the brand an earlier answer did teach.
      const learned = knowledge.familiesWithIds(target.brand);
      if (learned.length === 0) return null;
      const other = pick(learned);
      return soakRequest(kind, target, `${API_BASE_PATH}/brands/${target.brand}/${other}/${pick(knowledge.known(target.brand, other)!.ids)}`);
    }
    case 'next-page': {
      const cursor = knowledge.takeCursor();
      return cursor ? soakRequest(kind, cursor, cursor.path, { depth: cursor.depth }) : null;
    }
    case 'conditional': {
      const entries = knowledge.etags();
      if (entries.length === 0) return null;
      const entry = pick(entries);
      const reader = pick(targets.filter((t) => t.brand === entry.brand));
      return soakRequest(kind, reader, entry.path, { headers: { 'If-None-Match': entry.etag }, expect: 304 });
    }
    case 'not-found':
      return soakRequest(kind, target, `${path}/${MISSING_ID}`, { expect: 404 });
    case 'bad-request':
      return soakRequest(kind, target, `${path}?limit=0`, { expect: 400 });
    case 'list':
      return null;
  }
}

/** An exact filter on a value of the family's first record (one a plain column holds), else its `since` filter, else none. */
export function filterQuery(family: Resource, first: Record<string, unknown> | null): string | null {
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
