/** The shapes and constants the bench's cases are built from: their names, the positions walked to, the fixtures, one case. */

/**
 * Every case the bench can run, in the order of the table. The list
 * questions of CONTRACT.md §8: page 2000 newest first, beside the default
 * order's deep page it is held to; then the big brand's first page in the
 * default order and newest first, page 2000 by code, any of three statuses,
 * one month of `createdAt`, and counts by status. Cases measured together
 * (plan-runs.ts) sit side by side.
 */
export const CASE_NAMES = [
  'get-by-id', 'get-by-id-restricted', 'first-page-small', 'first-page-big-filter', 'page-2', 'page-2000', 'newest-page-2000', 'search', 'include',
  'first-page-big', 'newest-first-page', 'code-page-2000', 'any-of-statuses', 'created-month', 'counts-status',
] as const;
export type CaseName = (typeof CASE_NAMES)[number];

/** The page size of every list case. */
export const PAGE_LIMIT = 25;
/** The deep page: its latency should match page 2's. */
export const DEEP_PAGE = 2000;

/** The statuses the any-of case asks for at once: every one but the common one, about half of every brand. */
export const OTHER_STATUSES = Object.freeze(['development', 'sampling', 'discontinued'] as const);

/** The month the range case asks for, `[gte, lt)`: inside the three years the data set spreads over (2023 to 2025). */
export const CREATED_MONTH = Object.freeze({ gte: '2024-03-01T00:00:00Z', lt: '2024-04-01T00:00:00Z' });

/** The field the counts case counts by. */
export const COUNTED_FIELD = 'status';

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

/**
 * Where a page sorted by another field starts: the server's cursor, and the
 * floor's OFFSET (the rows before it) with the walk's total, which the
 * floor's page carries as the server's cursor does (so the floor's page is
 * the OFFSET query alone, counting nothing).
 */
export interface OffsetPosition {
  readonly page: number;
  readonly cursor: string;
  readonly offset: number;
  readonly total: number;
}

/**
 * The orders the fixtures walk to the deep page in, as a client would,
 * following `nextCursor`: the default order (page 2 and the deep page),
 * newest first (`sort=-createdAt`) and by code (`sort=code`).
 */
export const WALKS = ['default', 'newest', 'code'] as const;
export type Walk = (typeof WALKS)[number];

/** The `sort` each walk asks for (none for the default order). */
export const WALK_SORTS: Readonly<Record<Walk, string | null>> = Object.freeze({ default: null, newest: '-createdAt', code: 'code' });

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
  /** The deep page newest first: the server's cursor, the floor's `<created_at>,<id>` of the row before in that order. Null unless needed. */
  readonly newestDeep: PagePosition | null;
  /** The deep page by code: the server's cursor, the floor's OFFSET. Null unless needed. */
  readonly codeDeep: OffsetPosition | null;
}

/** One case: the same requests, as the server gets them and as the floor gets them. */
export interface BenchCase {
  readonly name: CaseName;
  readonly title: string;
  readonly serverPaths: readonly string[];
  readonly floorPaths: readonly string[];
  /** Whether the server is asked with the key restricted to an area (bench-services.ts) rather than the unrestricted one. */
  readonly restricted?: boolean;
}
