import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { COMMON_STATUS, SEARCH_WORD } from '../data/data-shape.ts';
import { FLOOR_PREFIX } from '../floors/floor-app.ts';

/** Every case the bench can run, in the order of the table. */
export const CASE_NAMES = ['get-by-id', 'first-page-small', 'first-page-big-filter', 'page-2', 'page-2000', 'search', 'include'] as const;
export type CaseName = (typeof CASE_NAMES)[number];

/** The page size of every list case. */
export const PAGE_LIMIT = 25;
/** The deep page: its latency should match page 2's. */
export const DEEP_PAGE = 2000;

/** A brand as the server names it (slug) and as the floor does (id). */
export interface BrandRef {
  readonly slug: string;
  readonly id: string;
}

/** Where a page of the big brand's products starts: the server's cursor, and the floor's `<created_at>,<id>` of the row before. */
export interface PagePosition {
  /** The page's number at `PAGE_LIMIT` records a page. */
  readonly page: number;
  readonly cursor: string;
  readonly after: string;
}

/** What the cases are built from, read from the loaded data and the running server. */
export interface CaseFixtures {
  readonly big: BrandRef;
  readonly small: BrandRef;
  /** Products of the big brand that the get-by-id case cycles through. */
  readonly productIds: readonly string[];
  /**
   * The starts of page 2 and of the deep page: page 2000, or the big brand's
   * last page when it has fewer. Null when no selected case needs them.
   */
  readonly pages: { readonly second: PagePosition; readonly deep: PagePosition } | null;
}

/** One case: the same requests, as the server gets them and as the floor gets them. */
export interface BenchCase {
  readonly name: CaseName;
  readonly title: string;
  readonly serverPaths: readonly string[];
  readonly floorPaths: readonly string[];
}

const serverList = (brand: BrandRef, query: Record<string, string>): string =>
  `${API_BASE_PATH}/brands/${brand.slug}/products?${new URLSearchParams(query).toString()}`;
const floorList = (brand: BrandRef, query: Record<string, string>): string =>
  `${FLOOR_PREFIX}/products/${brand.id}?${new URLSearchParams(query).toString()}`;
const limit = String(PAGE_LIMIT);

const pageCase = (which: 'second' | 'deep') => ({
  title: (fixtures: CaseFixtures) => `page ${fixtures.pages?.[which].page ?? '?'} of the big brand, by cursor`,
  needsPages: true,
  build: ({ big, pages }: CaseFixtures) => {
    if (!pages) throw new Error('the paging cases need the page positions');
    return {
      serverPaths: [serverList(big, { limit, cursor: pages[which].cursor })],
      floorPaths: [floorList(big, { limit, after: pages[which].after })],
    };
  },
});

/** Each case's title and requests; `needsPages` when it needs the cursor walk. */
const CASES: Readonly<Record<CaseName, {
  title: string | ((fixtures: CaseFixtures) => string);
  needsPages: boolean;
  build(fixtures: CaseFixtures): Pick<BenchCase, 'serverPaths' | 'floorPaths'>;
}>> = Object.freeze({
  'get-by-id': {
    title: 'get a product by id (big brand)',
    needsPages: false,
    build: ({ big, productIds }) => ({
      serverPaths: productIds.map((id) => `${API_BASE_PATH}/brands/${big.slug}/products/${id}`),
      floorPaths: productIds.map((id) => `${FLOOR_PREFIX}/products/${big.id}/${id}`),
    }),
  },
  'first-page-small': {
    title: 'first page, small brand',
    needsPages: false,
    build: ({ small }) => ({ serverPaths: [serverList(small, { limit })], floorPaths: [floorList(small, { limit })] }),
  },
  'first-page-big-filter': {
    title: `first page, big brand, status=${COMMON_STATUS}`,
    needsPages: false,
    build: ({ big }) => ({
      serverPaths: [serverList(big, { status: COMMON_STATUS, limit })],
      floorPaths: [floorList(big, { status: COMMON_STATUS, limit })],
    }),
  },
  'page-2': pageCase('second'),
  'page-2000': pageCase('deep'),
  search: {
    title: `text search, big brand, search=${SEARCH_WORD}`,
    needsPages: false,
    build: ({ big }) => ({
      serverPaths: [serverList(big, { search: SEARCH_WORD, limit })],
      floorPaths: [floorList(big, { search: SEARCH_WORD, limit })],
    }),
  },
  include: {
    title: 'first page with include=skus, small brand',
    needsPages: false,
    build: ({ small }) => ({
      serverPaths: [serverList(small, { include: 'skus', limit })],
      floorPaths: [floorList(small, { include: 'skus', limit })],
    }),
  },
});

/** Whether any of these cases needs the walk to page 2 and page 2000. */
export function needsPagePositions(names: readonly CaseName[]): boolean {
  return names.some((name) => CASES[name].needsPages);
}

export function buildCases({ names, fixtures }: { names: readonly CaseName[]; fixtures: CaseFixtures }): BenchCase[] {
  return names.map((name) => {
    const { title, build } = CASES[name];
    return { name, title: typeof title === 'string' ? title : title(fixtures), ...build(fixtures) };
  });
}
