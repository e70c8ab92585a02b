import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api-error.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import { CURSOR_TIMESTAMP } from '../compile/timestamp-text.ts';
import { hmacSha256 } from './hmac-sha256.ts';

/**
 * Signed, opaque keyset cursors (CONTRACT.md §3).
 *
 * A cursor carries the last row's `(created_at, id)` at full microsecond
 * precision, the walk's `totalItems` (counted on its first page, so later
 * pages need no count) and, with read replicas, a mark of how new the data
 * its first page was read from is (later pages are read from a copy at least
 * as new: `Reads`), and is bound to the brand, the collection and a hash of
 * the filters. It is `base64url(json) + "." + base64url(hmac)`: only the holder of
 * the secret can make one, so every instance sharing the secret accepts it and
 * a restart does not invalidate it.
 */

/** Where the next page starts: after this row. */
export interface CursorPosition {
  /** `created_at` in UTC with microseconds, `2026-03-01T09:30:00.123456Z`. */
  readonly createdAt: string;
  readonly id: string;
}

/** What a cursor is valid for. */
export interface CursorScope {
  readonly brandId: string;
  readonly collection: string;
  readonly filterHash: string;
}

/** What a cursor tells the next page: where it starts, the walk's total (null in a cursor of version 1), and its data mark. */
export interface CursorState {
  readonly position: CursorPosition;
  readonly totalItems: number | null;
  /** How new the data of the walk's first page was (`Reads.mark`); null when there was nothing to keep in step. */
  readonly mark: string | null;
}

export interface CursorCodec {
  encode(scope: CursorScope, state: { position: CursorPosition; totalItems: number; mark: string | null }): string;
  /** The state, or 400 `invalid_cursor` / `cursor_mismatch`. */
  decode(token: string, scope: CursorScope): CursorState;
  /** Signs any JSON object the same way, for the other opaque values (the changes feed's: changes-codec.ts). */
  seal(body: Readonly<Record<string, unknown>>): string;
  /** The object of a value `seal` made, or 400 `invalid_cursor`; the caller checks its fields. */
  open(token: string, maxLength?: number): Record<string, unknown>;
}

/** Version 2 adds the walk's total; cursors of version 1, handed out before, still work (the next page counts again). */
const VERSION = 2;
const VERSIONS: readonly unknown[] = [1, 2];
/** Ours are about 250 characters; anything far longer is not worth decoding. */
const MAX_TOKEN_LENGTH = 2048;
const UUID = new RegExp(UUID_PATTERN);
/** A data mark is short and plain (a Postgres LSN is `16/B374D848`). */
const MARK = /^[0-9A-Za-z/._:-]{1,64}$/;

/** A short stable hash of validated filter values: the same filters give the same hash in any order. */
export function hashFilters(filters: Readonly<Record<string, unknown>>): string {
  const canonical = JSON.stringify(Object.keys(filters).sort().map((name) => [name, filters[name]]));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

export function createCursorCodec(secret: string): CursorCodec {
  if (secret.length < 32) throw new Error('the cursor secret must have at least 32 characters');
  const mac = hmacSha256(secret);
  const sign = (payload: string): Buffer => mac(payload).subarray(0, 18);
  const invalid = (): never => {
    throw new ApiError({ errorCode: 'invalid_cursor' });
  };

  const seal = (body: Readonly<Record<string, unknown>>): string => {
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${sign(payload).toString('base64url')}`;
  };
  const open = (token: string, maxLength = MAX_TOKEN_LENGTH): Record<string, unknown> => {
    if (token.length > maxLength) return invalid();
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return invalid();
    // Compared as text: base64url decoding would ignore characters appended to a signature.
    const expected = Buffer.from(sign(payload).toString('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid();
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return invalid();
    }
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : invalid();
  };

  return {
    encode(scope, { position, totalItems, mark }) {
      if (mark !== null && !MARK.test(mark)) throw new Error(`not a data mark: '${mark}'`);
      return seal({ v: VERSION, b: scope.brandId, c: scope.collection, f: scope.filterHash, t: position.createdAt, i: position.id, n: totalItems, ...(mark === null ? {} : { w: mark }) });
    },

    seal,
    open,

    decode(token, scope) {
      const body = open(token);
      // Signed by us, so well formed unless the secret leaked or the format changed: check anyway.
      if (!VERSIONS.includes(body.v) || typeof body.t !== 'string' || !CURSOR_TIMESTAMP.test(body.t)
        || typeof body.i !== 'string' || !UUID.test(body.i)
        || (body.v === 2 && !(Number.isSafeInteger(body.n) && (body.n as number) >= 0))
        || (body.w !== undefined && !(typeof body.w === 'string' && MARK.test(body.w)))) {
        return invalid();
      }
      if (body.b !== scope.brandId || body.c !== scope.collection || body.f !== scope.filterHash) {
        throw new ApiError({ errorCode: 'cursor_mismatch' });
      }
      return {
        position: { createdAt: body.t, id: body.i },
        totalItems: body.v === 2 ? (body.n as number) : null,
        mark: typeof body.w === 'string' ? body.w : null,
      };
    },
  };
}
