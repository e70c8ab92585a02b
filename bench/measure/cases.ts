import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { COMMON_STATUS, SEARCH_WORD } from '../data/data-shape.ts';
import { FLOOR_PREFIX } from '../floors/floor-app.ts';
import { anyOf, deepPageOf, floorCounts, floorList, floorListOf, needed, serverCounts, serverList, serverListOf } from './case-paths.ts';

export { CASE_NAMES } from './case-shapes.ts';
export type { CaseName } from './case-shapes.ts';
export { PAGE_LIMIT, DEEP_PAGE, OTHER_STATUSES, CREATED_MONTH, COUNTED_FIELD, WALKS, WALK_SORTS } from './case-shapes.ts';
export type { BrandRef, PagePosition, OffsetPosition, Walk, CaseFixtures, BenchCase } from './case-shapes.ts';
import { PAGE_LIMIT, OTHER_STATUSES, CREATED_MONTH, COUNTED_FIELD, WALKS } from './case-shapes.ts';
import type { CaseFixtures, BenchCase, CaseName, Walk } from './case-shapes.ts';

const limit = String(PAGE_LIMIT);

const pageCase = (which: 'second' | 'deep') => ({
  title: (fixtures: CaseFixtures) => `page ${fixtures.pages?.[which].page ?? '?'} of the big brand, by cursor`,
  walks: ['default'] as const,
  build: ({ big, pages }: CaseFixtures) => {
    if (!pages) throw new Error('the paging cases need the page positions');
    return {
      serverPaths: [serverList(big, { limit, cursor: pages[which].cursor })],
      floorPaths: [floorList(big, { limit, after: pages[which].after })],
    };
  },
});

const getById = ({ big, productIds }: CaseFixtures): Pick<BenchCase, 'serverPaths' | 'floorPaths'> => ({
  serverPaths: productIds.map((id) => `${API_BASE_PATH}/brands/${big.slug}/products/${id}`),
  floorPaths: productIds.map((id) => `${FLOOR_PREFIX}/products/${big.id}/${id}`),
});

/**
 * Each case's title, requests and the walks its fixtures need. The cases of
 * §8 ask the floor in its hand-written form (floor-questions.ts): `order=`
 * for the sort, `after=` or `offset=` for the position, a filter several
 * times for any of, `createdAt[gte]`/`[lt]` for the range, `/counts` for
 * counts by value.
 */
const CASES: Readonly<Record<CaseName, {
  title: string | ((fixtures: CaseFixtures) => string);
  walks: readonly Walk[];
  build(fixtures: CaseFixtures): Pick<BenchCase, 'serverPaths' | 'floorPaths' | 'restricted'>;
}>> = Object.freeze({
  'get-by-id': {
    title: 'get a product by id (big brand)',
    walks: [],
    build: getById,
  },
  // What a restricted key costs: the same gets, asked with a key that reads the catalog area alone (measured beside get-by-id).
  'get-by-id-restricted': {
    title: 'get a product by id (big brand), with a key restricted to the catalog area',
    walks: [],
    build: (fixtures) => ({ ...getById(fixtures), restricted: true }),
  },
  'first-page-small': {
    title: 'first page, small brand',
    walks: [],
    build: ({ small }) => ({ serverPaths: [serverList(small, { limit })], floorPaths: [floorList(small, { limit })] }),
  },
  'first-page-big-filter': {
    title: `first page, big brand, status=${COMMON_STATUS}`,
    walks: [],
    build: ({ big }) => ({
      serverPaths: [serverList(big, { status: COMMON_STATUS, limit })],
      floorPaths: [floorList(big, { status: COMMON_STATUS, limit })],
    }),
  },
  'page-2': pageCase('second'),
  'page-2000': pageCase('deep'),
  search: {
    title: `text search, big brand, search=${SEARCH_WORD}`,
    walks: [],
    build: ({ big }) => ({
      serverPaths: [serverList(big, { search: SEARCH_WORD, limit })],
      floorPaths: [floorList(big, { search: SEARCH_WORD, limit })],
    }),
  },
  include: {
    title: 'first page with include=skus, small brand',
    walks: [],
    build: ({ small }) => ({
      serverPaths: [serverList(small, { include: 'skus', limit })],
      floorPaths: [floorList(small, { include: 'skus', limit })],
    }),
  },
  // What newest first is held to: the same page in the default order, asked of the floor in the same hand-written form.
  'first-page-big': {
    title: 'first page, big brand (default order, with its total)',
    walks: [],
    build: ({ big }) => ({ serverPaths: [serverList(big, { limit })], floorPaths: [floorList(big, { order: 'createdAt', limit })] }),
  },
  'newest-first-page': {
    title: 'first page, big brand, sort=-createdAt (with its total)',
    walks: [],
    build: ({ big }) => ({
      serverPaths: [serverList(big, { sort: '-createdAt', limit })],
      floorPaths: [floorList(big, { order: '-createdAt', limit })],
    }),
  },
  'newest-page-2000': {
    title: (fixtures) => `page ${deepPageOf(fixtures.newestDeep)} of the big brand, sort=-createdAt, by cursor`,
    walks: ['newest'],
    build: ({ big, newestDeep }) => {
      const position = needed(newestDeep, 'newest');
      return {
        serverPaths: [serverList(big, { sort: '-createdAt', limit, cursor: position.cursor })],
        floorPaths: [floorList(big, { order: '-createdAt', limit, after: position.after })],
      };
    },
  },
  'code-page-2000': {
    title: (fixtures) => `page ${deepPageOf(fixtures.codeDeep)} of the big brand, sort=code, by cursor (the floor by OFFSET)`,
    walks: ['code'],
    build: ({ big, codeDeep }) => {
      const position = needed(codeDeep, 'code');
      return {
        serverPaths: [serverList(big, { sort: 'code', limit, cursor: position.cursor })],
        floorPaths: [floorList(big, { order: 'code', limit, offset: String(position.offset), total: String(position.total) })],
      };
    },
  },
  'any-of-statuses': {
    // No `|` in a title: it would split the report's table cell.
    title: `first page, big brand, any of status=${OTHER_STATUSES.join(',')} (with its total)`,
    walks: [],
    build: ({ big }) => ({
      serverPaths: [serverListOf(big, [...anyOf('status', OTHER_STATUSES), ['limit', limit]])],
      floorPaths: [floorListOf(big, [...anyOf('status', OTHER_STATUSES), ['limit', limit]])],
    }),
  },
  'created-month': {
    title: `first page, big brand, createdAt in [${CREATED_MONTH.gte.slice(0, 10)}, ${CREATED_MONTH.lt.slice(0, 10)}) (with its total)`,
    walks: [],
    build: ({ big }) => {
      const range: [string, string][] = [['createdAt[gte]', CREATED_MONTH.gte], ['createdAt[lt]', CREATED_MONTH.lt], ['limit', limit]];
      return { serverPaths: [serverListOf(big, range)], floorPaths: [floorListOf(big, range)] };
    },
  },
  'counts-status': {
    title: `counts by ${COUNTED_FIELD}, big brand`,
    walks: [],
    build: ({ big }) => ({ serverPaths: [serverCounts(big, { by: COUNTED_FIELD })], floorPaths: [floorCounts(big, { by: COUNTED_FIELD })] }),
  },
});

/** The walks to the deep page these cases need, in `WALKS` order (none for cases that page no deeper than the first). */
export function walksOf(names: readonly CaseName[]): Walk[] {
  return WALKS.filter((walk) => names.some((name) => CASES[name].walks.includes(walk)));
}

/** Whether any of these cases needs the walk to page 2 and page 2000 in the default order. */
export function needsPagePositions(names: readonly CaseName[]): boolean {
  return walksOf(names).includes('default');
}

export function buildCases({ names, fixtures }: { names: readonly CaseName[]; fixtures: CaseFixtures }): BenchCase[] {
  return names.map((name) => {
    const { title, build } = CASES[name];
    return { name, title: typeof title === 'string' ? title : title(fixtures), ...build(fixtures) };
  });
}
