import pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { utcTimestampJsonSql } from '../../src/engine/compile/timestamp-sql.ts';
import { cursorTimestamp } from '../../src/engine/compile/timestamp-text.ts';
import { DEEP_PAGE, PAGE_LIMIT, WALK_SORTS, type BrandRef, type CaseFixtures, type OffsetPosition, type PagePosition, type Walk } from './cases.ts';
import type { Log } from '../data/load-data.ts';
import { pickBrands, type BrandPlan } from '../data/scale.ts';

/** Products the get-by-id case cycles through, so it does not read one cached row over and over. */
const PRODUCTS_BY_ID = 300;
/** The largest page the API serves: the walk to the deep page takes the fewest requests with it. */
const WALK_LIMIT = 100;

/** The server the walk follows cursors on. */
export interface WalkTarget {
  readonly origin: string;
  readonly key: string;
}

/** The JSON body of a GET with the key; an error unless the answer is 200. */
export async function getJson(url: string, key: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The server's cursors to page 2 and to page `deepPage` of a brand's
 * products, in the order `sort` asks for (the default order when null), by
 * following `nextCursor` from the first page as a client would, the sort on
 * every request (a cursor is bound to its sort). A cursor does not depend on
 * the page size, so after page 1 the walk takes pages of 100: page 2000 of 25
 * is about 500 requests instead of 1,999.
 */
export async function walkToPages({ target, brand, deepPage, sort = null }: {
  target: WalkTarget;
  brand: BrandRef;
  deepPage: number;
  sort?: string | null;
}): Promise<{ second: string; deep: string }> {
  const list = `${target.origin}${API_BASE_PATH}/brands/${brand.slug}/products`;
  const next = async (limit: number, cursor: string | null): Promise<string> => {
    const query = new URLSearchParams({ ...(sort ? { sort } : {}), limit: String(limit), ...(cursor ? { cursor } : {}) });
    const body = await getJson(`${list}?${query.toString()}`, target.key);
    if (typeof body.nextCursor !== 'string') throw new Error(`the walk to page ${deepPage}${sort ? ` (sort=${sort})` : ''} ended early: no nextCursor after a page of ${limit}`);
    return body.nextCursor;
  };
  const second = await next(PAGE_LIMIT, null);
  let cursor = second;
  let remaining = (deepPage - 2) * PAGE_LIMIT;
  while (remaining > 0) {
    const limit = Math.min(WALK_LIMIT, remaining);
    cursor = await next(limit, cursor);
    remaining -= limit;
  }
  return { second, deep: cursor };
}

/** A brand of the loaded data, by its slug. */
export async function brandRef({ client, slug }: { client: pg.Client; slug: string }): Promise<BrandRef> {
  const found = await client.query('select id from brands where slug = $1', [slug]);
  if (found.rows.length !== 1) throw new Error(`brand ${slug} is not in the database`);
  return { slug, id: (found.rows[0] as { id: string }).id };
}

/**
 * Everything the cases need: the brands' ids, products of the big brand to
 * get by id, and, for each walk asked for (`walks`), where its pages start,
 * both as the server's cursor (walked as a client walks) and as the floor's
 * plain position, read with SQL in the same order: page 2 and the deep page
 * in the default order, the deep page newest first (the row before it), the
 * deep page by code (its OFFSET and the brand's total). The walks run side by
 * side.
 */
export async function readFixtures({ url, brands, target, walks, log }: {
  url: string;
  brands: readonly BrandPlan[];
  target: WalkTarget;
  walks: readonly Walk[];
  log: Log;
}): Promise<CaseFixtures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const picked = pickBrands(brands);
    const big = await brandRef({ client, slug: picked.big.slug });
    const small = await brandRef({ client, slug: picked.small.slug });
    // In id order: random as to time and place in the table.
    const products = await client.query('select id from products where brand_id = $1 order by id limit $2', [big.id, PRODUCTS_BY_ID]);
    const productIds = products.rows.map((row: { id: string }) => row.id);
    if (walks.length === 0) return { big, small, productIds, pages: null, newestDeep: null, codeDeep: null };

    const lastPage = Math.max(2, Math.ceil(picked.big.productCount / PAGE_LIMIT));
    const deepPage = Math.min(DEEP_PAGE, lastPage);
    const walk = async (which: Walk): Promise<{ second: string; deep: string } | null> => {
      if (!walks.includes(which)) return null;
      const started = performance.now();
      const cursors = await walkToPages({ target, brand: big, deepPage, sort: WALK_SORTS[which] });
      log(`followed cursors to page ${deepPage} of ${big.slug}${WALK_SORTS[which] ? ` (sort=${WALK_SORTS[which]})` : ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return cursors;
    };
    const [byDefault, newest, byCode] = await Promise.all([walk('default'), walk('newest'), walk('code')]);
    // The row before a page, in the order given (its columns and directions), as the floor's `<created_at>,<id>`.
    const afterRow = async (page: number, order: string): Promise<string> => {
      const row = await client.query(
        `select ${utcTimestampJsonSql('created_at')} as "at", id from products where brand_id = $1 order by ${order} offset $2 limit 1`,
        [big.id, (page - 1) * PAGE_LIMIT - 1],
      );
      const { at, id } = row.rows[0] as { at: string; id: string };
      return `${cursorTimestamp(at)},${id}`;
    };
    const position = async (page: number, cursor: string, order: string): Promise<PagePosition> => ({ page, cursor, after: await afterRow(page, order) });
    const pages = byDefault
      ? { second: await position(2, byDefault.second, 'created_at, id'), deep: await position(deepPage, byDefault.deep, 'created_at, id') }
      : null;
    const newestDeep = newest ? await position(deepPage, newest.deep, 'created_at desc, id desc') : null;
    let codeDeep: OffsetPosition | null = null;
    if (byCode) {
      const counted = await client.query('select count(*)::int as "total" from products where brand_id = $1', [big.id]);
      codeDeep = { page: deepPage, cursor: byCode.deep, offset: (deepPage - 1) * PAGE_LIMIT, total: (counted.rows[0] as { total: number }).total };
    }
    return { big, small, productIds, pages, newestDeep, codeDeep };
  } finally {
    await client.end();
  }
}
