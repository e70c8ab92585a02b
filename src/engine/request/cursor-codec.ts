import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api-error.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import { CURSOR_TIMESTAMP } from '../compile/timestamp-text.ts';
import { hmacSha256 } from './hmac-sha256.ts';

/**
 * Signed, opaque keyset cursors (CONTRACT.md §3).
 *
 * A cursor carries the last row's `(created_at, id)` at full microsecond
 * precision (and, in another order than `createdAt`, the sort field's value
 * there, as the database wrote it: sort-keys.ts), the walk's `totalItems`
 * (counted on its first page, so later pages need no count) and, with read
 * replicas, a mark of how new the data its first page was read from is
 * (later pages are read from a copy at least as new: `Reads`), and is bound
 * to the brand, the collection, a hash of the filters and the sort. It is
 * `base64url(json) + "." + base64url(hmac)`: only the holder of a secret
 * can make one, so every instance sharing the secrets accepts it and a
 * restart does not invalidate it.
 *
 * The secrets are a list (CONTRACT.md §5, `CURSOR_SECRET`): the first signs,
 * and a value signed by any of them is accepted, so a secret is rotated by
 * putting the new one first, and the old one is removed once the cursors and
 * sync tokens it signed are no longer in use.
 *
 * A cursor in section 3's order (`createdAt` ascending) is written as before
 * sorts existed (version 2), so an instance of the version before reads the
 * cursors of this one during a rolling deploy, and this one reads theirs.
 */

/** Where the next page starts: after this row. */
export interface CursorPosition {
  /** `created_at` in UTC with microseconds, `2026-03-01T09:30:00.123456Z`. */
  readonly createdAt: string;
  readonly id: string;
  /**
   * In an order by another field than `createdAt`: that field's value at
   * this row, as sort-keys.ts writes it, or null when the row has none.
   * Absent in `createdAt` order.
   */
  readonly key?: string | null;
  /**
   * Instead of `key`, when the value was longer than `MAX_KEY_BYTES`: its
   * SHA-256 (`keyHash`). The next page reads the value from the row again
   * and goes on only if it is still the same (read-records.ts).
   */
  readonly keyHash?: string;
}

/** The hash a cursor carries for a sort value too long to carry (`CursorPosition.keyHash`). */
export const sortKeyHash = (key: string): string => createHash('sha256').update(key).digest('base64url');

/** What a cursor is valid for. */
export interface CursorScope {
  readonly brandId: string;
  readonly collection: string;
  readonly filterHash: string;
  /** The `sort` of the walk, `createdAt` (DEFAULT_SORT) without one. */
  readonly sort: string;
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

/**
 * Version 2 adds the walk's total; cursors of version 1, handed out before,
 * still work (the next page counts again). Version 3 adds the sort and the
 * sort field's value, and is written only in another order than section 3's.
 */
const VERSIONS: readonly unknown[] = [1, 2, 3];
/** The order every cursor before version 3 walks in. */
const DEFAULT_SORT = 'createdAt';
/**
 * Ours are about 250 characters, and longer only with a long sort value
 * (a string field's: `MAX_KEY_BYTES`); anything longer is not worth decoding.
 */
const MAX_TOKEN_LENGTH = 8192;
/** The longest sort value a cursor carries, in UTF-8 bytes: the cursor stays well inside a request line of 16 KiB. */
export const MAX_KEY_BYTES = 4096;
const UUID = new RegExp(UUID_PATTERN);
/** A data mark is short and plain (a Postgres LSN is `16/B374D848`). */
const MARK = /^[0-9A-Za-z/._:-]{1,64}$/;

/**
 * A short stable hash of validated filter values: the same filters give the
 * same hash in any order, and the values of a filter given several times in
 * any order too (one value hashes as it always did).
 */
export function hashFilters(filters: Readonly<Record<string, unknown>>): string {
  const canonical = JSON.stringify(Object.keys(filters).sort().map((name) => {
    const value = filters[name];
    return [name, Array.isArray(value) ? [...value].sort() : value];
  }));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/** The secrets of `CURSOR_SECRET`, checked: at least one, each of 32 characters or more. */
function checkedSecrets(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (list.length === 0) throw new Error('give at least one cursor secret');
  if (list.some((secret) => secret.length < 32)) throw new Error('the cursor secret must have at least 32 characters');
  return list;
}

/** Whether a signed list cursor's body has what its version holds: a place, a total (from version 2), a sort and its value (version 3). */
function wellFormed(body: Record<string, unknown>): boolean {
  const place = VERSIONS.includes(body.v) && typeof body.t === 'string' && CURSOR_TIMESTAMP.test(body.t) && typeof body.i === 'string' && UUID.test(body.i);
  const total = body.v === 1 || (Number.isSafeInteger(body.n) && (body.n as number) >= 0);
  const mark = body.w === undefined || (typeof body.w === 'string' && MARK.test(body.w));
  const sorted = body.v !== 3 || (typeof body.s === 'string' && body.s !== DEFAULT_SORT
    && (body.k === undefined || body.k === null || typeof body.k === 'string')
    && (body.kh === undefined || (typeof body.kh === 'string' && body.k === undefined)));
  return place && total && mark && sorted;
}

/** Opens what `seal` made with any of the signers: its object, or 400 `invalid_cursor`. */
function opener(signers: readonly ((payload: string) => Buffer)[]): (token: string, maxLength?: number) => Record<string, unknown> {
  const invalid = (): never => {
    throw new ApiError({ errorCode: 'invalid_cursor' });
  };
  return (token, maxLength = MAX_TOKEN_LENGTH) => {
    if (token.length > maxLength) return invalid();
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return invalid();
    // Compared as text: base64url decoding would ignore characters appended to a signature.
    const given = Buffer.from(signature);
    const signedByOne = signers.some((signer) => {
      const expected = Buffer.from(signer(payload).toString('base64url'));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!signedByOne) return invalid();
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return invalid();
    }
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : invalid();
  };
}

/** Makes the codec; with several secrets the first signs and every one verifies (a rotation). */
export function createCursorCodec(secrets: string | readonly string[]): CursorCodec {
  const signers = checkedSecrets(secrets).map((secret) => {
    const mac = hmacSha256(secret);
    return (payload: string): Buffer => mac(payload).subarray(0, 18);
  });
  const sign = signers[0]!;
  const invalid = (): never => {
    throw new ApiError({ errorCode: 'invalid_cursor' });
  };

  const seal = (body: Readonly<Record<string, unknown>>): string => {
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${sign(payload).toString('base64url')}`;
  };
  const open = opener(signers);

  return {
    encode(scope, { position, totalItems, mark }) {
      if (mark !== null && !MARK.test(mark)) throw new Error(`not a data mark: '${mark}'`);
      const walk = { b: scope.brandId, c: scope.collection, f: scope.filterHash };
      const rest = { t: position.createdAt, i: position.id, n: totalItems, ...(mark === null ? {} : { w: mark }) };
      if (scope.sort === DEFAULT_SORT) return seal({ v: 2, ...walk, ...rest });
      const key = position.key;
      const long = typeof key === 'string' && Buffer.byteLength(key) > MAX_KEY_BYTES;
      return seal({ v: 3, ...walk, s: scope.sort, ...rest, ...(key === undefined ? {} : long ? { kh: sortKeyHash(key) } : { k: key }) });
    },

    seal,
    open,

    decode(token, scope) {
      const body = open(token);
      // Signed by us, so well formed unless the secret leaked or the format changed: check anyway.
      if (!wellFormed(body)) return invalid();
      const sort = body.v === 3 ? body.s : DEFAULT_SORT;
      if (body.b !== scope.brandId || body.c !== scope.collection || body.f !== scope.filterHash || sort !== scope.sort) {
        throw new ApiError({ errorCode: 'cursor_mismatch' });
      }
      return {
        position: {
          createdAt: body.t as string,
          id: body.i as string,
          ...(body.k === undefined ? {} : { key: body.k as string | null }),
          ...(typeof body.kh === 'string' ? { keyHash: body.kh } : {}),
        },
        totalItems: body.v === 1 ? null : (body.n as number),
        mark: typeof body.w === 'string' ? body.w : null,
      };
    },
  };
}
