import { expect } from 'chai';
import type { TestServer } from './test-server.ts';

/** A copy of one family of one brand, kept by the changes feed as a client would. */
export interface SyncCopy {
  readonly records: Map<string, Record<string, unknown>>;
  token: string | null;
}

/** What one batch gave: its items in order and its page count. */
export interface SyncBatch {
  readonly items: { change: string; id: string; record: Record<string, unknown> | null }[];
  /**
   * The items that changed the copy. Delivery is at least once (CONTRACT.md §6):
   * a batch may repeat a change the copy already has (a record written while
   * the last batch was read; a batch read on a replica, or beside more
   * transactions in progress than a token carries, after the snapshot's
   * xmin alone); `changed` leaves those repeats out.
   */
  readonly changed: SyncBatch['items'];
  readonly pages: number;
}

export const newCopy = (): SyncCopy => ({ records: new Map(), token: null });

/**
 * Runs one batch (the first page with the copy's token, then the cursors),
 * checks every page's shape and that no id comes twice in the batch, and
 * applies the items to the copy in order.
 */
export async function syncBatch({ server, key, path, copy, limit, fields, cursor, wait }: {
  server: Pick<TestServer, 'request'>;
  key: string;
  path: string;
  copy: SyncCopy;
  limit?: number;
  fields?: string;
  /** Go on with a batch whose first pages the caller read: its `nextCursor`. */
  cursor?: string;
  /** Seconds the first page may wait for a change (CONTRACT.md §7): sent only with the copy's token. */
  wait?: number;
}): Promise<SyncBatch> {
  const items: SyncBatch['items'] = [];
  const changed: SyncBatch['items'] = [];
  const seen = new Set<string>();
  const params = new URLSearchParams();
  if (cursor !== undefined) params.set('cursor', cursor);
  else if (copy.token !== null) params.set('syncToken', copy.token);
  if (limit !== undefined) params.set('limit', String(limit));
  if (fields !== undefined) params.set('fields', fields);
  if (wait !== undefined && cursor === undefined && copy.token !== null) params.set('wait', String(wait));
  let url = `${path}/changes${params.size > 0 ? `?${params}` : ''}`;
  for (let pages = 1; pages < 10_000; pages++) {
    const response = await server.request(url, { key });
    expect(response.status, response.text).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['items', 'nextCursor', 'syncToken']);
    for (const item of response.body.items) {
      expect(seen.has(item.id), `${item.id} twice in one batch`).to.equal(false);
      seen.add(item.id);
      items.push(item);
      const held = copy.records.get(item.id);
      if (item.change === 'delete' ? held !== undefined : JSON.stringify(held) !== JSON.stringify(item.record)) changed.push(item);
      if (item.change === 'delete') copy.records.delete(item.id);
      else copy.records.set(item.id, item.record);
    }
    const { nextCursor, syncToken } = response.body;
    const link = response.headers.get('link');
    if (nextCursor === null) {
      expect(link).to.equal(null);
      expect(syncToken).to.be.a('string');
      copy.token = syncToken;
      return { items, changed, pages };
    }
    expect(syncToken).to.equal(null);
    const target = /^<([^>]+)>; rel="next"$/.exec(link ?? '');
    expect(target, `Link: ${link}`).to.not.equal(null);
    url = target![1]!;
  }
  throw new Error('the batch never ended');
}

/**
 * Every record of a list, by id, as the list route gives them, walked page
 * after page: what a copy kept by the changes feed must equal.
 */
export async function listedRecords({ server, key, path }: { server: TestServer; key: string; path: string }): Promise<Map<string, unknown>> {
  const records = new Map<string, unknown>();
  let cursor: string | null = null;
  do {
    const response = await server.request(`${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key });
    expect(response.status, response.text).to.equal(200);
    for (const record of response.body.items as { id: string }[]) records.set(record.id, record);
    cursor = response.body.nextCursor as string | null;
  } while (cursor !== null);
  return records;
}
