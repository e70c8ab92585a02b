import type { SoakKey } from './soak-database.ts';

/** What a soak request asks for; see `KIND_WEIGHTS` in soak-mix.ts for how often. */
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

/** Who sends a request: a key, and a brand it may read. */
export interface SoakTarget {
  readonly key: SoakKey;
  readonly brand: string;
}

/** A frozen request of `kind` by `target` for `path`: no headers, expecting 200, a first page, unless `extra` says otherwise. */
export function soakRequest(kind: SoakKind, target: SoakTarget, path: string, extra: Partial<SoakRequest> = {}): SoakRequest {
  return Object.freeze({ kind, path, key: target.key, brand: target.brand, headers: {}, expect: 200, depth: 1, ...extra });
}
