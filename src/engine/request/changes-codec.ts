import { ApiError } from './api-error.ts';
import type { CursorCodec } from './cursor-codec.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import type { BatchWalk } from '../compile/changes-queries.ts';

/**
 * The changes feed's opaque values (CONTRACT.md §6), signed by the cursor
 * codec's key, so every instance sharing it accepts them:
 *
 * - a sync token: the brand, the family, the `xmin` of the snapshot of the
 *   batch's first page (every transaction below it had finished), when that
 *   page was read (for expiry), and how new the last page's copy was;
 * - a cursor inside a batch: all of that, plus the token the batch started
 *   from, how its pages are read and the last id returned.
 *
 * A value that does not decode is 400 `invalid_cursor`; a genuine one of
 * another brand or family is 400 `cursor_mismatch`.
 */

/** What a changes value is valid for. */
export interface ChangesScope {
  readonly brandId: string;
  /** The family's path. */
  readonly family: string;
}

/** What a sync token says. */
export interface SyncToken {
  /** `pg_snapshot_xmin` of the batch's first page, as decimal text. */
  readonly xmin: string;
  /** When that page was read, in milliseconds since the epoch. */
  readonly madeAt: number;
  /** How new the copy the batch's last page was read from was (`Reads.mark`), or null: the next batch reads no older a copy. */
  readonly mark: string | null;
  /**
   * The ids of the TRUNCATEs at or above `xmin` that the batch's snapshot
   * already saw (their effect is in the copy): only another one refuses the
   * next batch. Absent: none.
   */
  readonly truncations?: readonly string[];
}

/** Where a batch is: its first page's snapshot xmin and time, the token it started from (null: a full sync) and the next page's start. */
export interface ChangesCursor {
  /** `pg_snapshot_xmin` of the first page's snapshot: the next batch's token. */
  readonly xmin: string;
  readonly madeAt: number;
  /** The `xmin` of the token the batch started from, or null for a full sync. */
  readonly since: string | null;
  /** How the batch's pages are read (changes-queries.ts). */
  readonly walk: BatchWalk;
  /** The last item's id. */
  readonly after: string;
  /** How new this page's copy was (`Reads.mark`), or null. */
  readonly mark: string | null;
  /** The next token's `truncations`. Absent: none. */
  readonly truncations?: readonly string[];
}

export interface ChangesCodec {
  encodeToken(scope: ChangesScope, token: SyncToken): string;
  decodeToken(value: string, scope: ChangesScope): SyncToken;
  encodeCursor(scope: ChangesScope, cursor: ChangesCursor): string;
  decodeCursor(value: string, scope: ChangesScope): ChangesCursor;
}

const XID = /^(0|[1-9][0-9]{0,19})$/;
const MAX_CURSOR_LENGTH = 1024;
const WALKS: readonly BatchWalk[] = ['full', 'small', 'large'];
const UUID = new RegExp(UUID_PATTERN);
const MARK = /^[0-9A-Za-z/._:-]{1,64}$/;

const isXid = (value: unknown): value is string => typeof value === 'string' && XID.test(value);
/** At most this many truncation ids ride in a token: past it none do, and the next batch is refused (410), never silently wrong. */
export const MAX_TOKEN_TRUNCATIONS = 16;
const XIDS = /^(0|[1-9][0-9]{0,19})(,(0|[1-9][0-9]{0,19})){0,15}$/;
/** A list of truncation ids, or none. */
const isXids = (value: unknown): boolean => value === undefined || (typeof value === 'string' && XIDS.test(value));
const sealXids = (list: readonly string[] | undefined): { r?: string } =>
  list && list.length > 0 && list.length <= MAX_TOKEN_TRUNCATIONS ? { r: list.join(',') } : {};
const openXids = (value: unknown): { truncations?: readonly string[] } => (typeof value === 'string' ? { truncations: value.split(',') } : {});
const isTime = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** A mark, or none. */
const isMark = (value: unknown): boolean => value === undefined || (typeof value === 'string' && MARK.test(value));

export function createChangesCodec(cursors: CursorCodec): ChangesCodec {
  const invalid = (): never => {
    throw new ApiError({ errorCode: 'invalid_cursor' });
  };
  /** Opens a value of one kind, checks its scope, and hands back the rest. */
  const openKind = ({ value, kind, scope }: { value: string; kind: string; scope: ChangesScope }): Record<string, unknown> => {
    const body = cursors.open(value, MAX_CURSOR_LENGTH);
    if (body.k !== kind) return invalid();
    if (body.b !== scope.brandId || body.c !== scope.family) throw new ApiError({ errorCode: 'cursor_mismatch' });
    return body;
  };

  return {
    encodeToken: (scope, token) => cursors.seal({
      k: 'sync', b: scope.brandId, c: scope.family, x: token.xmin, t: token.madeAt, ...(token.mark === null ? {} : { w: token.mark }),
      ...sealXids(token.truncations),
    }),

    decodeToken(value, scope) {
      const body = openKind({ value, kind: 'sync', scope });
      if (!isXid(body.x) || !isTime(body.t) || !isMark(body.w) || !isXids(body.r)) return invalid();
      return { xmin: body.x, madeAt: body.t, mark: typeof body.w === 'string' ? body.w : null, ...openXids(body.r) };
    },

    encodeCursor: (scope, cursor) => cursors.seal({
      k: 'changes', b: scope.brandId, c: scope.family, n: cursor.xmin, t: cursor.madeAt, x: cursor.since, m: cursor.walk,
      p: cursor.after, ...(cursor.mark === null ? {} : { w: cursor.mark }), ...sealXids(cursor.truncations),
    }),

    decodeCursor(value, scope) {
      const body = openKind({ value, kind: 'changes', scope });
      const walk = WALKS.find((w) => w === body.m);
      // A full sync has no token to start from; a batch after a token has one.
      if (!isXid(body.n) || !isTime(body.t) || !(body.x === null ? walk === 'full' : isXid(body.x) && walk !== 'full' && walk !== undefined)
        || typeof body.p !== 'string' || !UUID.test(body.p)
        || !isMark(body.w) || !isXids(body.r)) {
        return invalid();
      }
      return {
        xmin: body.n, madeAt: body.t, since: body.x as string | null, walk: walk!, after: body.p, mark: typeof body.w === 'string' ? body.w : null, ...openXids(body.r),
      };
    },
  };
}
