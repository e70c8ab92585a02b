import pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { utcTimestampJsonSql } from '../../src/engine/compile/timestamp-sql.ts';
import { cursorTimestamp } from '../../src/engine/compile/timestamp-text.ts';
import { DEEP_PAGE, PAGE_LIMIT, type BrandRef, type CaseFixtures, type PagePosition } from './cases.ts';
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
 * products, by following `nextCursor` from the first page as a client would.
 * A cursor does not depend on the page size, so after page 1 the walk takes
 * pages of 100: page 2000 of 25 is about 500 requests instead of 1,999.
 */
export async function walkToPages({ target, brand, deepPage }: { target: WalkTarget; brand: BrandRef; deepPage: number }): Promise<{ second: string; deep: string }> {
  const list = `${target.origin}${API_BASE_PATH}/brands/${brand.slug}/products`;
  const next = async (limit: number, cursor: string | null): Promise<string> => {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const body = await getJson(`${list}?${query.toString()}`, target.key);
    if (typeof body.nextCursor !== 'string') throw new Error(`the walk to page ${deepPage} ended early: no nextCursor after a page of ${limit}`);
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
 * get by id, and (when `needPages`) where page 2 and the deep page start,
 * both as the server's cursor and as the floor's plain position, read with
 * SQL in the list's own order.
 */
export async function readFixtures({ url, brands, target, needPages, log }: {
  url: string;
  brands: readonly BrandPlan[];
  target: WalkTarget;
  needPages: boolean;
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
    if (!needPages) return { big, small, productIds, pages: null };

    const lastPage = Math.max(2, Math.ceil(picked.big.productCount / PAGE_LIMIT));
    const deepPage = Math.min(DEEP_PAGE, lastPage);
    const started = performance.now();
    const cursors = await walkToPages({ target, brand: big, deepPage });
    log(`followed cursors to page ${deepPage} of ${big.slug} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const afterRow = async (page: number): Promise<string> => {
      const row = await client.query(
        `select ${utcTimestampJsonSql('created_at')} as "at", id from products where brand_id = $1 order by created_at, id offset $2 limit 1`,
        [big.id, (page - 1) * PAGE_LIMIT - 1],
      );
      const { at, id } = row.rows[0] as { at: string; id: string };
      return `${cursorTimestamp(at)},${id}`;
    };
    const position = async (page: number, cursor: string): Promise<PagePosition> => ({ page, cursor, after: await afterRow(page) });
    return { big, small, productIds, pages: { second: await position(2, cursors.second), deep: await position(deepPage, cursors.deep) } };
  } finally {
    await client.end();
  }
}
