import type pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { getJson, type WalkTarget } from './case-fixtures.ts';
import type { BrandRef } from './cases.ts';
import { BATCH_LIMIT } from './feed-cases.ts';
import { percentile } from './measure.ts';

/** One batch of the feed followed to its end by one client, as a sync reads it. */
export interface BatchTiming {
  readonly items: number;
  readonly deletes: number;
  readonly pages: number;
  readonly seconds: number;
}

/** What the writes before an incremental batch changed, and the batch that followed. */
export interface IncrementalBatch extends BatchTiming {
  /** Records the writes changed: what the batch should carry, no more. */
  readonly changed: number;
}

export interface SyncBatchesResult {
  readonly fullSync: BatchTiming;
  /** About 1 % of the brand's products updated, a few inserted and some of those deleted. */
  readonly small: IncrementalBatch;
  /** 10 % of the brand's products updated: past 10,000 changes a batch walks the ids. */
  readonly large: IncrementalBatch;
  /** A call with the last token when nothing changed, repeated: the poll a sync makes most. */
  readonly emptyPoll: { readonly calls: number; readonly p50Ms: number; readonly p99Ms: number };
}

/** Products the small batch's writes insert, and of those how many they then delete. */
const INSERTED = 100;
const DELETED = 50;
const EMPTY_POLLS = 30;
/** Marks the rows the bench inserts, so it can remove them at the end. */
const BENCH_CODE = 'FEED-BENCH-';

/** Follows one batch from `syncToken` (null: a full sync) to its last page; returns the next token. */
async function followBatch({ target, brand, syncToken }: { target: WalkTarget; brand: BrandRef; syncToken: string | null }): Promise<BatchTiming & { token: string }> {
  const path = `${target.origin}${API_BASE_PATH}/brands/${brand.slug}/products/changes`;
  let query: Record<string, string> = { limit: String(BATCH_LIMIT), ...(syncToken ? { syncToken } : {}) };
  let items = 0;
  let deletes = 0;
  let pages = 0;
  const started = performance.now();
  for (;;) {
    const body = await getJson(`${path}?${new URLSearchParams(query).toString()}`, target.key);
    pages += 1;
    const page = body.items as { change: string }[];
    items += page.length;
    deletes += page.filter((item) => item.change === 'delete').length;
    if (typeof body.nextCursor !== 'string') {
      return { items, deletes, pages, seconds: (performance.now() - started) / 1000, token: body.syncToken as string };
    }
    query = { limit: String(BATCH_LIMIT), cursor: body.nextCursor };
  }
}

/** Updates `count` of the brand's products, a spread of them (by a hash of the id and a salt), each in its own row write. */
async function touchProducts({ client, brand, count, salt }: { client: pg.Client; brand: BrandRef; count: number; salt: string }): Promise<number> {
  const result = await client.query(
    `update products set updated_at = now() where id in (
       select id from products where brand_id = $1 and code not like $4 order by md5(id::text || $3) limit $2)`,
    [brand.id, count, salt, `${BENCH_CODE}%`],
  );
  return result.rowCount ?? 0;
}

/** Inserts products for the brand (copies of some of its own, with new ids and codes), then deletes some of them. */
async function insertThenDelete({ client, brand }: { client: pg.Client; brand: BrandRef }): Promise<void> {
  await client.query(
    `insert into products (id, brand_id, code, name, status, category_id, created_at, updated_at)
     select gen_random_uuid(), brand_id, $2 || row_number() over (order by id), name, status, category_id, now(), now()
       from (select * from products where brand_id = $1 order by id limit $3) p`,
    [brand.id, BENCH_CODE, INSERTED],
  );
  await client.query(
    `delete from products where id in (select id from products where brand_id = $1 and code like $2 order by id limit $3)`,
    [brand.id, `${BENCH_CODE}%`, DELETED],
  );
}

/**
 * The big brand's feed as one sync client meets it: a full sync, then after
 * writes (committed before the batch) a small incremental batch and a large
 * one, each followed to its end with pages of 1,000; then polls with the last
 * token while nothing changes. The rows the writes inserted are removed at
 * the end; the updates only move `updated_at`.
 */
export async function measureSyncBatches({ target, brand, client }: { target: WalkTarget; brand: BrandRef; client: pg.Client }): Promise<SyncBatchesResult> {
  const { rows: [counted] } = await client.query('select count(*)::int as "n" from products where brand_id = $1', [brand.id]);
  const products = (counted as { n: number }).n;
  try {
    const { token: afterFull, ...fullSync } = await followBatch({ target, brand, syncToken: null });

    const updated = await touchProducts({ client, brand, count: Math.max(1, Math.round(products / 100)), salt: 'small' });
    await insertThenDelete({ client, brand });
    const { token: afterSmall, ...small } = await followBatch({ target, brand, syncToken: afterFull });

    const many = await touchProducts({ client, brand, count: Math.round(products / 10), salt: 'large' });
    const { token: afterLarge, ...large } = await followBatch({ target, brand, syncToken: afterSmall });

    const polls: number[] = [];
    for (let i = 0; i < EMPTY_POLLS; i++) {
      const poll = await followBatch({ target, brand, syncToken: afterLarge });
      if (poll.items !== 0) throw new Error(`a poll with nothing written gave ${poll.items} items`);
      polls.push(poll.seconds * 1000);
    }
    polls.sort((a, b) => a - b);
    return {
      fullSync,
      // The deleted rows were inserted after the full sync: each comes as a delete.
      small: { ...small, changed: updated + INSERTED },
      large: { ...large, changed: many },
      emptyPoll: { calls: EMPTY_POLLS, p50Ms: percentile(polls, 50), p99Ms: percentile(polls, 99) },
    };
  } finally {
    await client.query('delete from products where brand_id = $1 and code like $2', [brand.id, `${BENCH_CODE}%`]);
  }
}
