import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { createCursorCodec, hashFilters, MAX_KEY_BYTES, sortKeyHash } from '../../../src/engine/request/cursor-codec.ts';
import { ApiError } from '../../../src/engine/request/api-error.ts';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const scope = { brandId: '11111111-1111-4111-8111-111111111111', collection: 'products', filterHash: hashFilters({ status: 'approved' }), sort: 'createdAt' };
const position = { createdAt: '2026-03-01T09:30:00.123456Z', id: '22222222-2222-4222-8222-222222222222' };

function errorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return (error as ApiError).errorCode;
  }
  throw new Error('no error');
}

describe('cursor', () => {
  const codec = createCursorCodec(SECRET);
  const state = { position, totalItems: 120_000, mark: null };

  it('round-trips the position at microsecond precision, and is opaque URL-safe text', () => {
    const token = codec.encode(scope, state);
    expect(token).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(token, scope)).to.deep.equal(state);
  });

  it('round-trips positions at any instant Postgres holds: BC, years past 9999, the infinities', () => {
    for (const createdAt of ['0044-03-15T12:00:00.123456Z BC', '294276-12-31T23:59:59.999999Z', 'infinity', '-infinity']) {
      const far = { ...state, position: { ...position, createdAt } };
      expect(codec.decode(codec.encode(scope, far), scope), createdAt).to.deep.equal(far);
    }
  });

  it('still reads a cursor of version 1 (no total): the next page counts again', () => {
    const payload = Buffer.from(JSON.stringify({ v: 1, b: scope.brandId, c: scope.collection, f: scope.filterHash, t: position.createdAt, i: position.id })).toString('base64url');
    const signature = createHmac('sha256', SECRET).update(payload).digest().subarray(0, 18).toString('base64url');
    expect(codec.decode(`${payload}.${signature}`, scope)).to.deep.equal({ position, totalItems: null, mark: null });
  });

  it("carries the walk's data mark when there is one, and none when there is none", () => {
    const marked = { position, totalItems: 7, mark: '16/B374D848' };
    expect(codec.decode(codec.encode(scope, marked), scope)).to.deep.equal(marked);
    expect(JSON.parse(Buffer.from(codec.encode(scope, state).split('.')[0]!, 'base64url').toString())).to.not.have.property('w');
    expect(() => codec.encode(scope, { ...marked, mark: 'not a mark; drop table' })).to.throw(/not a data mark/);
  });

  it('refuses a signed cursor whose data mark is not a plain short string', () => {
    for (const w of [42, '', 'x'.repeat(65), 'a b', null]) {
      const payload = Buffer.from(JSON.stringify({ v: 2, b: scope.brandId, c: scope.collection, f: scope.filterHash, t: position.createdAt, i: position.id, n: 3, w })).toString('base64url');
      const signature = createHmac('sha256', SECRET).update(payload).digest().subarray(0, 18).toString('base64url');
      expect(errorCode(() => codec.decode(`${payload}.${signature}`, scope)), String(w)).to.equal('invalid_cursor');
    }
  });

  it('refuses a version 2 cursor whose total is not a whole number, even when signed', () => {
    for (const n of [-1, 1.5, '3', null]) {
      const payload = Buffer.from(JSON.stringify({ v: 2, b: scope.brandId, c: scope.collection, f: scope.filterHash, t: position.createdAt, i: position.id, n })).toString('base64url');
      const signature = createHmac('sha256', SECRET).update(payload).digest().subarray(0, 18).toString('base64url');
      expect(errorCode(() => codec.decode(`${payload}.${signature}`, scope)), String(n)).to.equal('invalid_cursor');
    }
  });

  it('is accepted by another codec with the same secret (another instance, or after a restart)', () => {
    expect(createCursorCodec(SECRET).decode(codec.encode(scope, state), scope)).to.deep.equal(state);
  });

  it('is invalid_cursor when tampered, truncated, garbage or signed with another secret', () => {
    const token = codec.encode(scope, state);
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, b: scope.brandId, c: 'products', f: scope.filterHash, t: position.createdAt, i: '33333333-3333-4333-8333-333333333333' })).toString('base64url');
    expect(errorCode(() => codec.decode(`${forged}.${signature}`, scope))).to.equal('invalid_cursor');
    expect(errorCode(() => codec.decode(token.slice(0, -2), scope))).to.equal('invalid_cursor');
    for (const extra of ['A', 'Q', 'AA', '=']) {
      expect(errorCode(() => codec.decode(`${token}${extra}`, scope)), extra).to.equal('invalid_cursor');
    }
    expect(errorCode(() => codec.decode(payload!, scope))).to.equal('invalid_cursor');
    expect(errorCode(() => codec.decode('garbage', scope))).to.equal('invalid_cursor');
    expect(errorCode(() => createCursorCodec(`${SECRET}-other`).decode(token, scope))).to.equal('invalid_cursor');
  });

  it('is cursor_mismatch for another brand, collection or filter set', () => {
    const token = codec.encode(scope, state);
    expect(errorCode(() => codec.decode(token, { ...scope, brandId: '44444444-4444-4444-8444-444444444444' }))).to.equal('cursor_mismatch');
    expect(errorCode(() => codec.decode(token, { ...scope, collection: 'skus' }))).to.equal('cursor_mismatch');
    expect(errorCode(() => codec.decode(token, { ...scope, filterHash: hashFilters({}) }))).to.equal('cursor_mismatch');
  });

  it('hashes filters independently of their order, and tells values apart', () => {
    expect(hashFilters({ a: 'x', b: 'y' })).to.equal(hashFilters({ b: 'y', a: 'x' }));
    expect(hashFilters({ a: 'x' })).to.not.equal(hashFilters({ a: 'y' }));
    expect(hashFilters({ a: 1 })).to.not.equal(hashFilters({ a: '1' }));
  });

  it('refuses a short secret', () => {
    expect(() => createCursorCodec('short')).to.throw(/at least 32 characters/);
  });

  it('hashes any of a filter\'s values in any order alike, and one value as it always was', () => {
    expect(hashFilters({ status: ['a', 'b'] })).to.equal(hashFilters({ status: ['b', 'a'] }));
    expect(hashFilters({ status: ['a', 'b'] })).to.not.equal(hashFilters({ status: 'a' }));
    // The hash of one value is the one cursors made before any of carried.
    // sha256 of `[["status","approved"]]`, as the code before sorts computed it.
    expect(hashFilters({ status: 'approved' })).to.equal(scope.filterHash).and.equal('VUp1o9RCh18x9Xx9AVdYQH');
  });

  describe('in another order than createdAt (version 3)', () => {
    const sorted = { ...scope, sort: '-totalAmount' };
    const keyed = { position: { ...position, key: '40.50' }, totalItems: 3, mark: 'w1' };

    it('carries the sort and the sort value exactly, a null value too, and is bound to the sort', () => {
      const token = codec.encode(sorted, keyed);
      expect(codec.decode(token, sorted)).to.deep.equal(keyed);
      const body = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
      expect(body).to.include({ v: 3, s: '-totalAmount', k: '40.50' });
      const nulls = { ...keyed, position: { ...position, key: null } };
      expect(codec.decode(codec.encode(sorted, nulls), sorted)).to.deep.equal(nulls);
      expect(errorCode(() => codec.decode(token, { ...sorted, sort: 'totalAmount' }))).to.equal('cursor_mismatch');
      expect(errorCode(() => codec.decode(token, scope))).to.equal('cursor_mismatch');
      // A cursor in createdAt order is no cursor of another order either.
      expect(errorCode(() => codec.decode(codec.encode(scope, state), sorted))).to.equal('cursor_mismatch');
    });

    it('writes a cursor in createdAt order as version 2, as before sorts, so an instance of the version before reads it', () => {
      const body = JSON.parse(Buffer.from(codec.encode(scope, state).split('.')[0]!, 'base64url').toString('utf8'));
      expect(body).to.deep.equal({ v: 2, b: scope.brandId, c: scope.collection, f: scope.filterHash, t: position.createdAt, i: position.id, n: state.totalItems });
      // The newest first is another order: version 3, with no value (its key is createdAt itself).
      const newest = { ...scope, sort: '-createdAt' };
      const token = codec.encode(newest, state);
      expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'))).to.include({ v: 3, s: '-createdAt' }).and.not.have.property('k');
      expect(codec.decode(token, newest)).to.deep.equal(state);
    });

    it('carries a value too long for a request line as its hash, which the next page checks against the row', () => {
      const long = 'é'.repeat(MAX_KEY_BYTES);
      const token = codec.encode(sorted, { ...keyed, position: { ...position, key: long } });
      expect(token.length).to.be.below(1000);
      expect(codec.decode(token, sorted).position).to.deep.equal({ ...position, keyHash: sortKeyHash(long) });
      const fits = 'x'.repeat(MAX_KEY_BYTES);
      expect(codec.decode(codec.encode(sorted, { ...keyed, position: { ...position, key: fits } }), sorted).position.key).to.equal(fits);
    });

    it('refuses a signed version 3 without a sort, or with a value that is not text', () => {
      for (const body of [{ s: undefined }, { s: 'createdAt' }, { k: 12 }, { k: 'x', kh: 'y' }]) {
        const token = codec.seal({ v: 3, b: scope.brandId, c: scope.collection, f: scope.filterHash, s: '-code', t: position.createdAt, i: position.id, n: 1, ...body });
        expect(errorCode(() => codec.decode(token, sorted)), JSON.stringify(body)).to.equal('invalid_cursor');
      }
    });
  });

  describe('with several secrets (a rotation of CURSOR_SECRET)', () => {
    const NEW = 'a-new-secret-of-at-least-thirty-two-characters';

    it('signs with the first and accepts what any of them signed; a secret removed no longer verifies', () => {
      const rotated = createCursorCodec([NEW, SECRET]);
      const before = codec.encode(scope, state);
      const after = rotated.encode(scope, state);
      expect(rotated.decode(before, scope)).to.deep.equal(state);
      expect(rotated.decode(after, scope)).to.deep.equal(state);
      expect(after).to.equal(createCursorCodec(NEW).encode(scope, state));
      // An instance not yet given the new secret refuses what the new one signs; once the old one is removed, its cursors go.
      expect(errorCode(() => codec.decode(after, scope))).to.equal('invalid_cursor');
      expect(errorCode(() => createCursorCodec([NEW]).decode(before, scope))).to.equal('invalid_cursor');
      expect(rotated.open(codec.seal({ k: 'sync' }))).to.deep.equal({ k: 'sync' });
    });

    it('refuses an empty list, and any short secret in it', () => {
      expect(() => createCursorCodec([])).to.throw(/at least one/);
      expect(() => createCursorCodec([NEW, 'short'])).to.throw(/at least 32 characters/);
    });
  });
});
