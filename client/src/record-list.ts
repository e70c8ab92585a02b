import { ApiError } from './errors.ts';

/** One page of a list, as the server sent it, with the cursor that asked for it. */
export interface Page<R> {
  readonly items: R[];
  /** The cursor of the next page; null on the last page. */
  readonly nextCursor: string | null;
  /** How many records match, across every page (counted when this page was read). */
  readonly totalItems: number;
  /** The cursor this page was asked with (null for the first page): asking with it again gives this page again. */
  readonly cursor: string | null;
}

/**
 * Every record of a list, page after page. Iterating it (`for await`) yields
 * records; `pages()` yields whole pages. Each iteration starts a new walk from
 * the starting cursor, with the same filters, includes and page size.
 */
export interface RecordList<R> extends AsyncIterable<R> {
  pages(): AsyncGenerator<Page<R>, void, undefined>;
  /** Every record in one array: for lists known to be small. */
  toArray(): Promise<R[]>;
}

/** Fetches the page a cursor names (null for the first one) and returns the body. */
export type FetchPage = (cursor: string | null) => Promise<{ body: unknown; url: string }>;

export function createRecordList<R>({ fetchPage, startCursor }: { fetchPage: FetchPage; startCursor: string | null }): RecordList<R> {
  async function* pages(): AsyncGenerator<Page<R>, void, undefined> {
    let cursor = startCursor;
    for (;;) {
      const { body, url } = await fetchPage(cursor);
      const page = toPage<R>({ body, url, cursor });
      yield page;
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
    async toArray() {
      const records: R[] = [];
      for await (const page of pages()) records.push(...page.items);
      return records;
    },
  };
}

/** Checks the envelope `{ items, nextCursor, totalItems }`; a walk must never loop on a cursor. */
function toPage<R>({ body, url, cursor }: { body: unknown; url: string; cursor: string | null }): Page<R> {
  const { items, nextCursor, totalItems } = (body ?? {}) as Record<string, unknown>;
  const valid = Array.isArray(items)
    && (nextCursor === null || (typeof nextCursor === 'string' && nextCursor !== '' && nextCursor !== cursor))
    && typeof totalItems === 'number';
  if (!valid) {
    throw new ApiError({
      status: 200,
      errorCode: 'unexpected_response',
      message: 'the body is not a list page { items, nextCursor, totalItems } with a new cursor',
      details: body,
      requestId: null,
      retryAfterSeconds: null,
      url,
    });
  }
  return { items: items as R[], nextCursor: nextCursor as string | null, totalItems: totalItems as number, cursor };
}
