import { ApiError } from '../request/api-error.ts';
import { snapshotXmin, type ChangesCodec, type ChangesCursor, type ChangesScope } from '../request/changes-codec.ts';
import type { CompiledResource } from '../compile/compile-registry.ts';
import { XID_COLUMN, type ChangesArgs } from '../compile/changes-queries.ts';
import type { ReadSession, Row } from './reads.ts';

/**
 * One page of a family's changes feed (CONTRACT.md §6), with no knowledge of
 * HTTP. Why the pages of a batch, and batch after batch, never miss a change
 * nor repeat one within a batch: compile/changes-queries.ts.
 */

/** A changes request after validation. */
export interface ChangesRequest {
  readonly limit: number;
  readonly syncToken: string | null;
  readonly cursor: string | null;
  readonly fields: readonly string[] | null;
}

export type ChangeItem =
  | { readonly change: 'upsert'; readonly id: string; readonly record: Row }
  | { readonly change: 'delete'; readonly id: string; readonly record: null };

export interface ChangesPage {
  readonly items: ChangeItem[];
  readonly nextCursor: string | null;
  readonly syncToken: string | null;
}

/** Where a request stands in its batch: decoded before any query, so a bad value is a 400 (or a 410) without a database read. */
export interface ChangesBatch {
  readonly scope: ChangesScope;
  /** The batch so far; null on its first page. */
  readonly cursor: ChangesCursor | null;
  /** The token's xmin on a first page with a token; null for a full sync (or on a later page: it is in the cursor). */
  readonly since: string | null;
}

const DAY_MS = 86_400_000;

/**
 * Checks the request's token or cursor against the brand and family: 400 when
 * it does not decode or belongs elsewhere, 410 when the token (or the token
 * the batch started from, whose deletions the batch still reads) is older
 * than the retention: its tombstones may be gone.
 */
export function openBatch({ codec, brandId, family, request, retentionDays, now }: {
  codec: ChangesCodec;
  brandId: string;
  family: CompiledResource;
  request: ChangesRequest;
  retentionDays: number;
  now: number;
}): ChangesBatch {
  const scope = { brandId, family: family.resource.path };
  const expired = (madeAt: number): boolean => now - madeAt > retentionDays * DAY_MS;
  if (request.cursor !== null) {
    const cursor = codec.decodeCursor(request.cursor, scope);
    if (cursor.since !== null && expired(cursor.madeAt)) throw new ApiError({ errorCode: 'sync_token_expired' });
    return { scope, cursor, since: null };
  }
  if (request.syncToken === null) return { scope, cursor: null, since: null };
  const token = codec.decodeToken(request.syncToken, scope);
  if (expired(token.madeAt)) throw new ApiError({ errorCode: 'sync_token_expired' });
  return { scope, cursor: null, since: token.xmin };
}

const compareXid = (a: string, b: string): number => {
  const [x, y] = [BigInt(a), BigInt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** `(sync_xid, id)` order, the order both queries read in (uuids compare as their lower-case text does). */
const byPosition = (a: Row, b: Row): number =>
  compareXid(a[XID_COLUMN] as string, b[XID_COLUMN] as string) || ((a.id as string) < (b.id as string) ? -1 : a.id === b.id ? 0 : 1);

/**
 * One page: the first takes the batch's snapshot; upserts and deletes are
 * read apart, each at most `limit + 1`, and merged in `(sync_xid, id)` order.
 * The last page hands out the token of the next batch: the xmin of the first
 * page's snapshot, and the first page's time.
 */
export async function readChanges({ session, family, request, batch, codec, now }: {
  session: ReadSession;
  family: CompiledResource;
  request: ChangesRequest;
  batch: ChangesBatch;
  codec: ChangesCodec;
  now: number;
}): Promise<ChangesPage> {
  const { changes } = family;
  const first = batch.cursor === null;
  const snapshot = batch.cursor?.snapshot ?? ((await session.rows(changes.snapshot()))[0]!.snapshot as string);
  const since = first ? batch.since : batch.cursor!.since;
  const args: ChangesArgs = { brandId: batch.scope.brandId, snapshot, since, after: batch.cursor?.after ?? null, limit: request.limit + 1 };
  const [upserts, deletes] = await Promise.all([
    session.rows(changes.upserts(args)).then(changes.decode),
    // A full sync lists what exists: every current record, no deletion.
    since === null ? Promise.resolve([]) : session.rows(changes.deletes(args)),
  ]);
  const rows = [...upserts, ...deletes.map((row): Row => ({ ...row, [DELETED]: true }))].sort(byPosition);
  const hasNext = rows.length > request.limit;
  if (hasNext) rows.length = request.limit;
  const madeAt = batch.cursor?.madeAt ?? now;
  const last = rows[rows.length - 1];
  const nextCursor = hasNext && last
    ? codec.encodeCursor(batch.scope, {
      snapshot, madeAt, since, after: { xid: last[XID_COLUMN] as string, id: last.id as string },
      mark: first ? await session.mark() : batch.cursor!.mark,
    })
    : null;
  return {
    items: rows.map(toItem),
    nextCursor,
    syncToken: nextCursor === null ? codec.encodeToken(batch.scope, { xmin: snapshotXmin(snapshot), madeAt }) : null,
  };
}

const DELETED = '__deleted';

function toItem(row: Row): ChangeItem {
  const id = row.id as string;
  if (row[DELETED] === true) return { change: 'delete', id, record: null };
  delete row[XID_COLUMN];
  return { change: 'upsert', id, record: row };
}
