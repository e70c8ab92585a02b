import { ApiError } from './api-error.ts';
import type { CursorCodec } from './cursor-codec.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import type { BatchWalk } from '../compile/changes-queries.ts';
import { fromXmin, parseSnapshot, xminOf } from '../compile/snapshot-text.ts';

/**
 * The changes feed's opaque values (CONTRACT.md §6), signed by the cursor
 * codec's key, so every instance sharing it accepts them:
 *
 * - a sync token: the brand, the family, the snapshot of the batch's first
 *   page (what it saw: compile/snapshot-text.ts), when that page was read
 *   (for expiry), and how new the last page's copy was;
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
  /** The snapshot of the batch's first page, as `pg_snapshot` text (snapshot-text.ts). */
  readonly snapshot: string;
  /** When that page was read, in milliseconds since the epoch. */
  readonly madeAt: number;
  /** How new the copy the batch's last page was read from was (`Reads.mark`), or null: the next batch reads no older a copy. */
  readonly mark: string | null;
  /**
   * The ids of the TRUNCATEs at or above the snapshot's `xmin` that it
   * already saw (their effect is in the copy): only another one refuses the
   * next batch. Absent: none.
   */
  readonly truncations?: readonly string[];
}

/** Where a batch is: its first page's snapshot and time, the token it started from (null: a full sync) and the next page's start. */
export interface ChangesCursor {
  /** The first page's snapshot: the next batch's token. */
  readonly snapshot: string;
  readonly madeAt: number;
  /** The snapshot of the token the batch started from, or null for a full sync. */
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
/** Room for two snapshots of MAX_IN_PROGRESS ids and MAX_TOKEN_TRUNCATIONS truncations. */
const MAX_CURSOR_LENGTH = 2048;
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
/**
 * A snapshot rides as its `xmin` (`x`, what a token of an earlier version
 * held, and still all an instance of one reads) and, unless it is `xmin`
 * alone, its whole text; a value without the text means `xmin:xmin:`.
 */
const sealSnapshot = (xmin: string, snapshot: string, text: string): Record<string, string> =>
  ({ [xmin]: xminOf(snapshot), ...(snapshot === fromXmin(xminOf(snapshot)) ? {} : { [text]: snapshot }) });
const openSnapshot = (xmin: unknown, text: unknown): string | null => {
  if (!isXid(xmin)) return null;
  if (text === undefined) return fromXmin(xmin);
  return typeof text === 'string' && parseSnapshot(text) !== null && xminOf(text) === xmin ? text : null;
};
const isTime = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
/** A mark, or none. */
const isMark = (value: unknown): boolean => value === undefined || (typeof value === 'string' && MARK.test(value));

/**
 * Tokens decoded before, by their text, at most this many: a follower calls
 * again and again with the same token while nothing changes (CONTRACT.md
 * §7), and a text that verified once verifies every time, so it is not
 * verified and parsed anew on every waited call.
 */
export const DECODED_TOKENS = 20_000;

export function createChangesCodec(cursors: CursorCodec): ChangesCodec {
  const invalid = (): never => {
    throw new ApiError({ errorCode: 'invalid_cursor' });
  };
  const decoded = new Map<string, { readonly scope: ChangesScope; readonly token: SyncToken }>();
  /** Opens a value of one kind, checks its scope, and hands back the rest. */
  const openKind = ({ value, kind, scope }: { value: string; kind: string; scope: ChangesScope }): Record<string, unknown> => {
    const body = cursors.open(value, MAX_CURSOR_LENGTH);
    if (body.k !== kind) return invalid();
    if (body.b !== scope.brandId || body.c !== scope.family) throw new ApiError({ errorCode: 'cursor_mismatch' });
    return body;
  };

  return {
    encodeToken: (scope, token) => cursors.seal({
      k: 'sync', b: scope.brandId, c: scope.family, ...sealSnapshot('x', token.snapshot, 's'), t: token.madeAt, ...(token.mark === null ? {} : { w: token.mark }),
      ...sealXids(token.truncations),
    }),

    decodeToken(value, scope) {
      const known = decoded.get(value);
      if (known) {
        // The text's scope is the one it was signed for: checked as a fresh decode checks it.
        if (known.scope.brandId !== scope.brandId || known.scope.family !== scope.family) throw new ApiError({ errorCode: 'cursor_mismatch' });
        return known.token;
      }
      const body = openKind({ value, kind: 'sync', scope });
      const snapshot = openSnapshot(body.x, body.s);
      if (snapshot === null || !isTime(body.t) || !isMark(body.w) || !isXids(body.r)) return invalid();
      const token: SyncToken = Object.freeze({ snapshot, madeAt: body.t, mark: typeof body.w === 'string' ? body.w : null, ...openXids(body.r) });
      if (decoded.size >= DECODED_TOKENS) decoded.delete(decoded.keys().next().value!);
      decoded.set(value, { scope: { brandId: scope.brandId, family: scope.family }, token });
      return token;
    },

    encodeCursor: (scope, cursor) => cursors.seal({
      k: 'changes', b: scope.brandId, c: scope.family, ...sealSnapshot('n', cursor.snapshot, 'ns'), t: cursor.madeAt,
      ...(cursor.since === null ? { x: null } : sealSnapshot('x', cursor.since, 'xs')), m: cursor.walk,
      p: cursor.after, ...(cursor.mark === null ? {} : { w: cursor.mark }), ...sealXids(cursor.truncations),
    }),

    decodeCursor(value, scope) {
      const body = openKind({ value, kind: 'changes', scope });
      const walk = WALKS.find((w) => w === body.m);
      const snapshot = openSnapshot(body.n, body.ns);
      const fullSync = body.x === null && body.xs === undefined;
      const since = fullSync ? null : openSnapshot(body.x, body.xs);
      // A full sync has no token to start from; a batch after a token has one.
      if (snapshot === null || !isTime(body.t) || !(fullSync ? walk === 'full' : since !== null && walk !== 'full' && walk !== undefined)
        || typeof body.p !== 'string' || !UUID.test(body.p)
        || !isMark(body.w) || !isXids(body.r)) {
        return invalid();
      }
      return {
        snapshot, madeAt: body.t, since, walk: walk!, after: body.p, mark: typeof body.w === 'string' ? body.w : null, ...openXids(body.r),
      };
    },
  };
}
