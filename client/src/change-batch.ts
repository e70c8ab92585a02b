import { ApiError } from './errors.ts';
import type { FetchPage } from './record-list.ts';

/** A record that is new or changed: the record as `get` returns it (with `fields` applied). */
export interface UpsertItem<R> {
  readonly change: 'upsert';
  readonly id: string;
  readonly record: R;
}

/** A record deleted (or moved to another brand): drop it from the copy. */
export interface DeleteItem {
  readonly change: 'delete';
  readonly id: string;
  readonly record: null;
}

/** One item of a changes feed. Applied in order, the last item for an id wins. */
export type ChangeItem<R> = UpsertItem<R> | DeleteItem;

/** One page of a batch, as the server sent it, with the cursor that asked for it. */
export interface ChangesPage<R> {
  readonly items: ChangeItem<R>[];
  /** The cursor of the batch's next page; null on its last page. */
  readonly nextCursor: string | null;
  /** On the last page, the token of the next batch; null on every other page. */
  readonly syncToken: string | null;
  /** The cursor this page was asked with (null for the batch's first page). */
  readonly cursor: string | null;
}

/**
 * One batch of a changes feed: an async iterator over its items that follows
 * the pages itself and, when the batch ends, returns (as the iterator's
 * `done` value) the token of the next batch; `syncToken` holds it too from
 * then on, for a `for await` loop. A batch is read once, by item or by page.
 */
export interface ChangeBatch<R> extends AsyncIterator<ChangeItem<R>, string, undefined> {
  [Symbol.asyncIterator](): ChangeBatch<R>;
  /** The next batch's token once this batch has been read to its end; null before (and after a loop left early). */
  readonly syncToken: string | null;
  /** The batch page by page instead of item by item (to save a page's `nextCursor` and resume from it); returns the token too. */
  pages(): AsyncGenerator<ChangesPage<R>, string, undefined>;
}

/** A batch that sends nothing until it is read, then walks from `startCursor` (null: the first page) to the end. */
export function createChangeBatch<R>({ fetchPage, startCursor }: { fetchPage: FetchPage; startCursor: string | null }): ChangeBatch<R> {
  let syncToken: string | null = null;
  let reading: 'items' | 'pages' | null = null;
  const claim = (how: 'items' | 'pages'): void => {
    if (reading !== null && (reading !== how || how === 'pages')) {
      throw new TypeError('a change batch is read once, by item or by page: ask for a new batch to read it again');
    }
    reading = how;
  };

  async function* walk(): AsyncGenerator<ChangesPage<R>, string, undefined> {
    for (let cursor = startCursor; ;) {
      const { body, url } = await fetchPage(cursor);
      const page = toChangesPage<R>({ body, url, cursor });
      yield page;
      if (page.nextCursor === null) {
        // Only now, once the caller has taken the last page: a loop left early never sees a token it has not earned.
        syncToken = page.syncToken!;
        return syncToken;
      }
      cursor = page.nextCursor;
    }
  }
  async function* itemWalk(): AsyncGenerator<ChangeItem<R>, string, undefined> {
    const pages = walk();
    for (;;) {
      const step = await pages.next();
      if (step.done) return step.value;
      yield* step.value.items;
    }
  }
  let items: AsyncGenerator<ChangeItem<R>, string, undefined> | null = null;
  const itemsOnce = (): AsyncGenerator<ChangeItem<R>, string, undefined> => {
    if (items === null) {
      claim('items');
      items = itemWalk();
    }
    return items;
  };

  const batch: ChangeBatch<R> = {
    get syncToken() {
      return syncToken;
    },
    // Async, so a misuse rejects the promise as any failure of the walk does.
    next: async () => itemsOnce().next(),
    return: async (value?: string | PromiseLike<string>) => itemsOnce().return(value as string),
    throw: async (error?: unknown) => itemsOnce().throw(error),
    [Symbol.asyncIterator]: () => batch,
    pages() {
      claim('pages');
      return walk();
    },
  };
  return batch;
}

/** Checks the envelope `{ items, nextCursor, syncToken }` (CONTRACT.md §6); a walk must never loop on a cursor. */
function toChangesPage<R>({ body, url, cursor }: { body: unknown; url: string; cursor: string | null }): ChangesPage<R> {
  const { items, nextCursor, syncToken } = (body ?? {}) as Record<string, unknown>;
  const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';
  const valid = Array.isArray(items) && items.every(isChangeItem)
    && (nextCursor === null ? nonEmpty(syncToken) : nonEmpty(nextCursor) && nextCursor !== cursor && syncToken === null);
  if (!valid) {
    throw new ApiError({
      status: 200,
      errorCode: 'unexpected_response',
      message: 'the body is not a changes page { items, nextCursor, syncToken } with a new cursor or a token',
      details: body,
      requestId: null,
      retryAfterSeconds: null,
      url,
    });
  }
  return { items: items as ChangeItem<R>[], nextCursor: nextCursor as string | null, syncToken: syncToken as string | null, cursor };
}

function isChangeItem(value: unknown): boolean {
  const { change, id, record } = (value ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string') return false;
  if (change === 'delete') return record === null;
  return change === 'upsert' && typeof record === 'object' && record !== null;
}
