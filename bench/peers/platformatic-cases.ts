import { buildCases, CREATED_MONTH, OTHER_STATUSES, PAGE_LIMIT, walksOf, type CaseFixtures, type CaseName, type PagePosition, type Walk } from '../measure/cases.ts';
import { COMMON_STATUS, SEARCH_WORD } from '../data/data-shape.ts';

/** Who answers in `npm run bench:platformatic`: the server, the floor preparing its SQL, Platformatic DB. */
export const PLATFORMATIC_SIDES = ['server', 'preparedFloor', 'platformatic'] as const;
export type PlatformaticSide = (typeof PLATFORMATIC_SIDES)[number];

/**
 * The cases asked of all three, in the order of the table: the bench's cases
 * of the same names, and the deep page once more with Platformatic paging by
 * its own cursor (`startAfter`) instead of an offset. Then the list
 * questions of CONTRACT.md §8: the deep page newest first against
 * Platformatic's own cursor in that order (`orderby.createdAt=desc`), any
 * of three statuses (`where.status.in`) and one month of `createdAt`
 * (`where.createdAt.gte` with `where.createdAt.lt`), each first page with its
 * total. Not here: the bench's `include` (Platformatic's REST lists embed no
 * related records: one more request per product), nor page 2 (the deep page
 * says more), nor counts by value (Platformatic DB's REST API has no
 * `GROUP BY`).
 */
export const PLATFORMATIC_CASE_NAMES = [
  'get-by-id', 'first-page-small', 'first-page-big-filter', 'page-2000', 'page-2000-cursor', 'search',
  'newest-page-2000-cursor', 'any-of-statuses', 'created-month',
] as const;
export type PlatformaticCaseName = (typeof PLATFORMATIC_CASE_NAMES)[number];

/** One case: the same records asked of each side, in its own syntax. */
export interface PlatformaticCase {
  readonly name: PlatformaticCaseName;
  readonly title: string;
  readonly paths: Readonly<Record<PlatformaticSide, readonly string[]>>;
  /** Whether each side's answer carries the total of the list (the server's first page does; Platformatic's with `totalCount=true`). */
  readonly counted: boolean;
}

/**
 * The columns the server's product has, asked of Platformatic (which would
 * otherwise read and print `brandId` and `syncXid` too): `categoryId` stands
 * for the server's `category`, the category's name, which the server joins
 * and Platformatic's REST API cannot.
 */
const FIELDS = 'id,code,name,status,categoryId,createdAt,updatedAt';

/**
 * Platformatic's list of a brand's products in the server's order
 * (`createdAt`, then `id`: the server's cursor order; both descending for
 * newest first), a page of `PAGE_LIMIT`. Platformatic takes the `orderby.*`
 * parameters in the order given.
 */
function platformaticList(brandId: string, query: Record<string, string>, direction: 'asc' | 'desc' = 'asc'): string {
  const order = { 'orderby.createdAt': direction, 'orderby.id': direction };
  return `/products/?${new URLSearchParams({ 'where.brandId.eq': brandId, ...query, ...order, limit: String(PAGE_LIMIT), fields: FIELDS }).toString()}`;
}

/**
 * Platformatic's cursor: base64 of the JSON of the order's fields of the row
 * before the page. It is given the floor's exact position (microseconds);
 * Platformatic's own `X-Start-After` would carry the timestamp in
 * milliseconds, as it prints it, which on a brand whose timestamps have
 * microseconds repeats the last row of a page at the top of the next (seen on
 * the small brand). The big brand's timestamps are whole milliseconds, so
 * there the two agree.
 */
export function platformaticCursor(after: string): string {
  const comma = after.lastIndexOf(',');
  return Buffer.from(JSON.stringify({ createdAt: after.slice(0, comma), id: after.slice(comma + 1) })).toString('base64');
}

/** What Platformatic is asked for each case (the server and the floor are asked as in `npm run bench`). */
const PLATFORMATIC_PATHS: Readonly<Record<PlatformaticCaseName, (fixtures: CaseFixtures) => string[]>> = Object.freeze({
  // By id alone: Platformatic's get has no brand in its path (the server's checks the brand too).
  'get-by-id': ({ productIds }) => productIds.map((id) => `/products/${id}?fields=${FIELDS}`),
  'first-page-small': ({ small }) => [platformaticList(small.id, { totalCount: 'true' })],
  'first-page-big-filter': ({ big }) => [platformaticList(big.id, { 'where.status.eq': COMMON_STATUS, totalCount: 'true' })],
  // No count: the server's later pages carry the total counted on the first, and count nothing.
  'page-2000': ({ big, pages }) => [platformaticList(big.id, { offset: String((deepPage(pages).page - 1) * PAGE_LIMIT) })],
  'page-2000-cursor': ({ big, pages }) => [platformaticList(big.id, { startAfter: platformaticCursor(deepPage(pages).after) })],
  // The server's `search` is `(name ilike '%word%' or code ilike '%word%')`: the same in Platformatic's `where.or`.
  search: ({ big }) => [platformaticList(big.id, { 'where.or': `(name.ilike=%${SEARCH_WORD}%|code.ilike=%${SEARCH_WORD}%)`, totalCount: 'true' })],
  // Its cursor in its own order: `(created_at, id) < (...)` (a tuple comparison when every key goes the same way).
  'newest-page-2000-cursor': ({ big, newestDeep }) => [platformaticList(big.id, { startAfter: platformaticCursor(needed(newestDeep).after) }, 'desc')],
  // `in` takes the values comma-separated; Platformatic counts the total unless the page is the whole list.
  'any-of-statuses': ({ big }) => [platformaticList(big.id, { 'where.status.in': OTHER_STATUSES.join(','), totalCount: 'true' })],
  // Two operators on one field combine with AND.
  'created-month': ({ big }) => [platformaticList(big.id, { 'where.createdAt.gte': CREATED_MONTH.gte, 'where.createdAt.lt': CREATED_MONTH.lt, totalCount: 'true' })],
});

function needed(position: PagePosition | null): PagePosition {
  if (!position) throw new Error('the paging cases need the page positions');
  return position;
}

function deepPage(pages: CaseFixtures['pages']): PagePosition {
  return needed(pages?.deep ?? null);
}

/** The bench's case a case asks the server and the floor. */
const benchCaseOf = (name: PlatformaticCaseName): CaseName =>
  (name === 'page-2000-cursor' ? 'page-2000' : name === 'newest-page-2000-cursor' ? 'newest-page-2000' : name);

/** The walks to the deep page these cases need (cases.ts: `walksOf`). */
export function platformaticWalks(names: readonly PlatformaticCaseName[]): Walk[] {
  return walksOf(names.map(benchCaseOf));
}

/** Whether any of these cases needs a walk to a deep page. */
export function needsDeepPage(names: readonly PlatformaticCaseName[]): boolean {
  return platformaticWalks(names).length > 0;
}

export function buildPlatformaticCases({ names, fixtures }: { names: readonly PlatformaticCaseName[]; fixtures: CaseFixtures }): PlatformaticCase[] {
  return names.map((name) => {
    const [bench] = buildCases({ names: [benchCaseOf(name)], fixtures });
    const how = name === 'page-2000' ? ', Platformatic by offset' : name.endsWith('-cursor') ? ', Platformatic by its cursor' : '';
    return {
      name,
      title: `${bench!.title}${how}`,
      paths: { server: bench!.serverPaths, preparedFloor: bench!.floorPaths, platformatic: PLATFORMATIC_PATHS[name](fixtures) },
      // No count on a deep page: the server's later pages carry the total counted on the first.
      counted: !/^(newest-)?page-/.test(name) && name !== 'get-by-id',
    };
  });
}
