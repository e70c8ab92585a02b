import { expect } from 'chai';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { createChangesCodec, MAX_TOKEN_TRUNCATIONS } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';
import { MAX_IN_PROGRESS } from '../../../src/engine/compile/snapshot-text.ts';

const cursors = createCursorCodec('a-secret-of-at-least-thirty-two-characters');
const codec = createChangesCodec(cursors);
const scope = { brandId: '0b9e6a3c-4f2d-4c1e-9a8b-7d6c5b4a3f21', family: 'carton-sizes' };
const cursor = {
  snapshot: '1000:1000:', madeAt: 1_764_000_000_000, since: '990:990:', walk: 'small', after: '5a0f3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b', mark: null,
} as const;

function errorCodeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as ApiError).errorCode;
  }
  throw new Error('it did not throw');
}

describe('changes codec', () => {
  it('round-trips a sync token and a cursor, the mark kept when there is one', () => {
    expect(codec.decodeToken(codec.encodeToken(scope, { snapshot: '1000:1000:', madeAt: 5, mark: null }), scope)).to.deep.equal({ snapshot: '1000:1000:', madeAt: 5, mark: null });
    expect(codec.decodeToken(codec.encodeToken(scope, { snapshot: '1000:1000:', madeAt: 5, mark: '16/B374D848' }), scope).mark).to.equal('16/B374D848');
    expect(codec.decodeCursor(codec.encodeCursor(scope, cursor), scope)).to.deep.equal(cursor);
    const full = { ...cursor, since: null, walk: 'full', mark: '16/B374D848' } as const;
    expect(codec.decodeCursor(codec.encodeCursor(scope, full), scope)).to.deep.equal(full);
  });

  it('carries the whole snapshot (what the batch saw beside open transactions) in a token and a cursor, and reads a value of its xmin alone as xmin:xmin:', () => {
    const token = { snapshot: '1000:1010:1003,1007', madeAt: 5, mark: null };
    expect(codec.decodeToken(codec.encodeToken(scope, token), scope)).to.deep.equal(token);
    const both = { ...cursor, snapshot: '1000:1012:1003,1011', since: '990:995:991' };
    expect(codec.decodeCursor(codec.encodeCursor(scope, both), scope)).to.deep.equal(both);
    // What an instance of the version before wrote: the xmin alone.
    expect(codec.decodeToken(cursors.seal({ k: 'sync', b: scope.brandId, c: scope.family, x: '1000', t: 5 }), scope).snapshot).to.equal('1000:1000:');
    const base = { k: 'changes', b: scope.brandId, c: scope.family, n: '1000', t: 1, x: '990', m: 'small', p: cursor.after };
    expect(codec.decodeCursor(cursors.seal(base), scope)).to.include({ snapshot: '1000:1000:', since: '990:990:' });
    const sync = (s: unknown): Record<string, unknown> => ({ k: 'sync', b: scope.brandId, c: scope.family, x: '1000', t: 5, s });
    const tooMany = `1000:2000:${Array.from({ length: MAX_IN_PROGRESS + 1 }, (_, i) => 1001 + i).join(',')}`;
    // Another xmin than x, an id outside [xmin, xmax), out of order, more than a token carries, junk.
    for (const bad of ['999:1010:', '1000:1010:1010', '1000:1010:999', '1000:1010:1005,1003', '1000:990:', tooMany, '1000:1010', 7]) {
      expect(errorCodeOf(() => codec.decodeToken(cursors.seal(sync(bad)), scope)), String(bad)).to.equal('invalid_cursor');
    }
    for (const bad of [{ ns: '999:1000:' }, { xs: '1000:1000:' }, { x: null, xs: '990:990:', m: 'full' }]) {
      expect(errorCodeOf(() => codec.decodeCursor(cursors.seal({ ...base, ...bad }), scope)), JSON.stringify(bad)).to.equal('invalid_cursor');
    }
    // Past MAX_IN_PROGRESS ids the batch keeps its xmin alone (read-changes.ts), so a token stays short.
    const longest = `1000:99999999999:${Array.from({ length: MAX_IN_PROGRESS }, (_, i) => 99999999900 + i).join(',')}`;
    const full = codec.encodeCursor(scope, { ...cursor, snapshot: longest, since: longest, truncations: Array.from({ length: MAX_TOKEN_TRUNCATIONS }, (_, i) => String(99999999900 + i)) });
    expect(codec.decodeCursor(full, scope).snapshot).to.equal(longest);
  });

  it('carries the truncations the batch already saw, in a token and in a cursor; too many ride in neither (the next batch is refused, never silently wrong)', () => {
    const token = { snapshot: '1000:1000:', madeAt: 5, mark: null, truncations: ['1001', '1003'] };
    expect(codec.decodeToken(codec.encodeToken(scope, token), scope)).to.deep.equal(token);
    expect(codec.decodeCursor(codec.encodeCursor(scope, { ...cursor, truncations: ['1002'] }), scope).truncations).to.deep.equal(['1002']);
    const many = Array.from({ length: MAX_TOKEN_TRUNCATIONS + 1 }, (_, i) => String(1001 + i));
    expect(codec.decodeToken(codec.encodeToken(scope, { ...token, truncations: many }), scope)).to.deep.equal({ snapshot: '1000:1000:', madeAt: 5, mark: null });
    expect(errorCodeOf(() => codec.decodeToken(cursors.seal({ k: 'sync', b: scope.brandId, c: scope.family, x: '1', t: 5, r: '1,x' }), scope))).to.equal('invalid_cursor');
  });

  it('a value of another brand or family is cursor_mismatch; a token used as a cursor, a list cursor, a forged or junk value invalid_cursor', () => {
    const token = codec.encodeToken(scope, { snapshot: '1000:1000:', madeAt: 5, mark: null });
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, family: 'options' }))).to.equal('cursor_mismatch');
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, brandId: cursor.after }))).to.equal('cursor_mismatch');
    expect(errorCodeOf(() => codec.decodeCursor(token, scope))).to.equal('invalid_cursor');
    const list = cursors.encode({ brandId: scope.brandId, collection: 'carton-sizes', filterHash: 'x', sort: 'createdAt' }, {
      position: { createdAt: '2026-03-01T09:30:00.123456Z', id: cursor.after }, totalItems: 1, mark: null,
    });
    expect(errorCodeOf(() => codec.decodeToken(list, scope))).to.equal('invalid_cursor');
    expect(errorCodeOf(() => codec.decodeToken(`${token}x`, scope))).to.equal('invalid_cursor');
    expect(errorCodeOf(() => codec.decodeToken('junk', scope))).to.equal('invalid_cursor');
    const other = createChangesCodec(createCursorCodec('another-secret-of-thirty-two-characters!'));
    expect(errorCodeOf(() => codec.decodeToken(other.encodeToken(scope, { snapshot: '1:1:', madeAt: 1, mark: null }), scope))).to.equal('invalid_cursor');
  });

  it('refuses signed values whose fields are malformed', () => {
    const sealed = (body: Record<string, unknown>): string => cursors.seal({ k: 'sync', b: scope.brandId, c: scope.family, ...body });
    for (const body of [{ x: '-1', t: 1 }, { x: '01', t: 1 }, { x: 1000, t: 1 }, { x: '1000', t: -1 }, { x: '1000', t: 'now' }, { x: '1', t: 1, w: 'bad mark!' }]) {
      expect(errorCodeOf(() => codec.decodeToken(sealed(body), scope)), JSON.stringify(body)).to.equal('invalid_cursor');
    }
    const base = { k: 'changes', b: scope.brandId, c: scope.family, n: '1000', t: 1, x: null, m: 'full', p: cursor.after };
    expect(codec.decodeCursor(cursors.seal(base), scope).walk).to.equal('full');
    const changes = [
      { n: '1:2' }, { n: 7 }, { p: ['1', cursor.after] }, { p: 'not-a-uuid' }, { x: 'x' }, { w: 'bad mark!' },
      // A full sync has no token; a batch after a token is not a full sync.
      { m: 'small' }, { x: '990' }, { x: '990', m: 'fast' }, { m: undefined },
    ];
    for (const change of changes) {
      expect(errorCodeOf(() => codec.decodeCursor(cursors.seal({ ...base, ...change }), scope)), JSON.stringify(change)).to.equal('invalid_cursor');
    }
  });

  it('decodes a token it has decoded before from memory, and still refuses it for another brand or family', () => {
    const token = codec.encodeToken(scope, { snapshot: '1000:1002:1001', madeAt: 5, mark: null });
    const first = codec.decodeToken(token, scope);
    expect(codec.decodeToken(token, scope)).to.equal(first);
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, family: 'options' }))).to.equal('cursor_mismatch');
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, brandId: cursor.after }))).to.equal('cursor_mismatch');
    // A text that never verified is never remembered: a forgery is refused every time.
    expect(errorCodeOf(() => codec.decodeToken(`${token}x`, scope))).to.equal('invalid_cursor');
    expect(errorCodeOf(() => codec.decodeToken(`${token}x`, scope))).to.equal('invalid_cursor');
  });
});
