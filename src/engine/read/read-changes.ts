import { ApiError } from '../request/api-error.ts';
import type { ChangesCodec, ChangesCursor, ChangesScope } from '../request/changes-codec.ts';
import type { CompiledResource } from '../compile/compile-registry.ts';
import { SMALL_BATCH, type BatchWalk } from '../compile/changes-queries.ts';
import { boundedSnapshot } from '../compile/snapshot-text.ts';
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
  /** The token's snapshot on a first page with a token; null for a full sync (or on a later page: it is in the cursor). */
  readonly since: string | null;
  /** The token's truncations (already in the copy); empty without a token. */
  readonly seen: readonly string[];
  /** When the token the batch follows was made (ms since the epoch), on a first page after one; null otherwise. */
  readonly madeAt: number | null;
  /**
   * How new a copy of the data the page must be read from (`Reads.run`'s
   * `after`): at least as new as the one the previous page, or the previous
   * batch's last page, was read from. So a client whose calls land on
   * replicas at different points never sees its copy go back in time.
   */
  readonly mark: string | null;
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
    return { scope, cursor, since: null, seen: [], mark: cursor.mark, madeAt: null };
  }
  if (request.syncToken === null) return { scope, cursor: null, since: null, seen: [], mark: null, madeAt: null };
  const token = codec.decodeToken(request.syncToken, scope);
  if (expired(token.madeAt)) throw new ApiError({ errorCode: 'sync_token_expired' });
  return { scope, cursor: null, since: token.snapshot, seen: token.truncations ?? [], mark: token.mark, madeAt: token.madeAt };
}

/**
 * One page. The first takes the batch's snapshot (the next batch's token)
 * and, after a token, sizes the batch to choose how its pages are
 * read, and refuses it (410) when a TRUNCATE since the token removed rows
 * of the brand; every page then reads upserts and deletes in one statement, in id
 * order. The last page hands out the token of the next batch, made at the
 * first page's time.
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
  const brandId = batch.scope.brandId;
  const position = batch.cursor ?? await startBatch({ session, family, brandId, since: batch.since, seen: batch.seen, now });
  const rows = await session.rows(changes.page({
    brandId, since: position.since, walk: position.walk, after: batch.cursor?.after ?? null, limit: request.limit + 1,
  }));
  const hasNext = rows.length > request.limit;
  if (hasNext) rows.length = request.limit;
  const last = rows[rows.length - 1];
  // Where this page's copy stands now, for the next page or batch to read no older a copy.
  const mark = await session.mark();
  const nextCursor = hasNext && last ? codec.encodeCursor(batch.scope, { ...position, after: last[ID] as string, mark }) : null;
  return {
    items: rows.map((row) => toItem(row, changes.record)),
    nextCursor,
    syncToken: nextCursor === null
      ? codec.encodeToken(batch.scope, { snapshot: position.snapshot, madeAt: position.madeAt, mark, ...(position.truncations ? { truncations: position.truncations } : {}) })
      : null,
  };
}

/** A batch's first statement: its snapshot, and the walk its size calls for. */
async function startBatch({ session, family, brandId, since, seen, now }: {
  session: ReadSession;
  family: CompiledResource;
  brandId: string;
  since: string | null;
  seen: readonly string[];
  now: number;
}): Promise<Omit<ChangesCursor, 'after' | 'mark'>> {
  const [start] = await session.rows(family.changes.start({ brandId, since, seen }));
  // Rows went with no tombstone: the client's copy cannot be brought up to date, only made again.
  if (start!.truncated === true) throw new ApiError({ errorCode: 'sync_token_expired' });
  const walk: BatchWalk = since === null ? 'full' : (start!.items as number) > SMALL_BATCH ? 'large' : 'small';
  const truncations = typeof start!.truncations === 'string' && start!.truncations !== '' ? start!.truncations.split(',') : [];
  return { snapshot: boundedSnapshot(start!.snapshot as string), madeAt: now, since, walk, ...(truncations.length > 0 ? { truncations } : {}) };
}

const ID = '__id';
const DELETED = '__deleted';

/** A change from its row: the hidden id and deletion flag read from the row, the record made without them (query-parts.ts). */
function toItem(row: Row, record: (row: Row) => Row): ChangeItem {
  const id = row[ID] as string;
  if (row[DELETED] === true) return { change: 'delete', id, record: null };
  return { change: 'upsert', id, record: record(row) };
}
