import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { SoakKey } from './soak-database.ts';
import type { SoakRequest } from './soak-request.ts';

/** A page a cursor walk goes on to. */
export interface SoakCursor {
  readonly brand: string;
  readonly key: SoakKey;
  readonly path: string;
  readonly depth: number;
}

/** An answer's ETag, for a conditional request later. */
export interface SoakEtag {
  readonly brand: string;
  readonly path: string;
  readonly etag: string;
}

/** What the soak has learned from the answers, for its later requests to read by id, follow cursors and ask conditionally. */
export interface SoakKnowledge {
  /** Up to ten ids of a family's first page for a brand, and its first record; null before one was read. */
  known(brand: string, familyPath: string): { readonly ids: readonly string[]; readonly first: Record<string, unknown> | null } | null;
  /** The families of a brand whose first page gave at least one id, in the order they were learned. */
  familiesWithIds(brand: string): readonly string[];
  etags(): readonly SoakEtag[];
  /** The newest cursor not yet followed, so walks go on deeper; null when there is none. */
  takeCursor(): SoakCursor | null;
  /** Feeds an answer back: a 200's body and ETag teach ids, cursors and conditional requests. */
  learn(request: SoakRequest, answer: { status: number; etag: string | null; body: string }): void;
}

const MAX_DEPTH = 4;
/** Bounded memory of its own: the soak must not be the thing that grows. */
const MAX_ETAGS = 2000;
const MAX_CURSORS = 500;

export function createSoakKnowledge(): SoakKnowledge {
  const known = new Map<string, { ids: string[]; first: Record<string, unknown> | null }>();
  const etags = new Map<string, SoakEtag>();
  const cursors: SoakCursor[] = [];
  return {
    known: (brand, familyPath) => known.get(`${brand}/${familyPath}`) ?? null,
    familiesWithIds: (brand) => [...known].filter(([where, { ids }]) => where.startsWith(`${brand}/`) && ids.length > 0).map(([where]) => where.slice(brand.length + 1)),
    etags: () => [...etags.values()],
    takeCursor: () => cursors.pop() ?? null,
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
