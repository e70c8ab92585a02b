import { expect } from 'chai';
import { ApiError } from '../../../src/engine/request/api-error.ts';
import { createChangesCodec, MAX_TOKEN_TRUNCATIONS } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';

const cursors = createCursorCodec('a-secret-of-at-least-thirty-two-characters');
const codec = createChangesCodec(cursors);
const scope = { brandId: '0b9e6a3c-4f2d-4c1e-9a8b-7d6c5b4a3f21', family: 'carton-sizes' };
const cursor = {
  xmin: '1000', madeAt: 1_764_000_000_000, since: '990', walk: 'small', after: '5a0f3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b', mark: null,
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
    expect(codec.decodeToken(codec.encodeToken(scope, { xmin: '1000', madeAt: 5, mark: null }), scope)).to.deep.equal({ xmin: '1000', madeAt: 5, mark: null });
    expect(codec.decodeToken(codec.encodeToken(scope, { xmin: '1000', madeAt: 5, mark: '16/B374D848' }), scope).mark).to.equal('16/B374D848');
    expect(codec.decodeCursor(codec.encodeCursor(scope, cursor), scope)).to.deep.equal(cursor);
    const full = { ...cursor, since: null, walk: 'full', mark: '16/B374D848' } as const;
    expect(codec.decodeCursor(codec.encodeCursor(scope, full), scope)).to.deep.equal(full);
  });

  it('carries the truncations the batch already saw, in a token and in a cursor; too many ride in neither (the next batch is refused, never silently wrong)', () => {
    const token = { xmin: '1000', madeAt: 5, mark: null, truncations: ['1001', '1003'] };
    expect(codec.decodeToken(codec.encodeToken(scope, token), scope)).to.deep.equal(token);
    expect(codec.decodeCursor(codec.encodeCursor(scope, { ...cursor, truncations: ['1002'] }), scope).truncations).to.deep.equal(['1002']);
    const many = Array.from({ length: MAX_TOKEN_TRUNCATIONS + 1 }, (_, i) => String(1001 + i));
    expect(codec.decodeToken(codec.encodeToken(scope, { ...token, truncations: many }), scope)).to.deep.equal({ xmin: '1000', madeAt: 5, mark: null });
    expect(errorCodeOf(() => codec.decodeToken(cursors.seal({ k: 'sync', b: scope.brandId, c: scope.family, x: '1', t: 5, r: '1,x' }), scope))).to.equal('invalid_cursor');
  });

  it('a value of another brand or family is cursor_mismatch; a token used as a cursor, a list cursor, a forged or junk value invalid_cursor', () => {
    const token = codec.encodeToken(scope, { xmin: '1000', madeAt: 5, mark: null });
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, family: 'options' }))).to.equal('cursor_mismatch');
    expect(errorCodeOf(() => codec.decodeToken(token, { ...scope, brandId: cursor.after }))).to.equal('cursor_mismatch');
    expect(errorCodeOf(() => codec.decodeCursor(token, scope))).to.equal('invalid_cursor');
    const list = cursors.encode({ brandId: scope.brandId, collection: 'carton-sizes', filterHash: 'x' }, {
      position: { createdAt: '2026-03-01T09:30:00.123456Z', id: cursor.after }, totalItems: 1, mark: null,
    });
    expect(errorCodeOf(() => codec.decodeToken(list, scope))).to.equal('invalid_cursor');
    expect(errorCodeOf(() => codec.decodeToken(`${token}x`, scope))).to.equal('invalid_cursor');
    expect(errorCodeOf(() => codec.decodeToken('junk', scope))).to.equal('invalid_cursor');
    const other = createChangesCodec(createCursorCodec('another-secret-of-thirty-two-characters!'));
    expect(errorCodeOf(() => codec.decodeToken(other.encodeToken(scope, { xmin: '1', madeAt: 1, mark: null }), scope))).to.equal('invalid_cursor');
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
});
