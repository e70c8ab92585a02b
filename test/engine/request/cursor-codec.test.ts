import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { createCursorCodec, hashFilters } from '../../../src/engine/request/cursor-codec.ts';
import { ApiError } from '../../../src/engine/request/api-error.ts';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const scope = { brandId: '11111111-1111-4111-8111-111111111111', collection: 'products', filterHash: hashFilters({ status: 'approved' }) };
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
});
