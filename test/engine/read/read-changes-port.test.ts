import { expect } from 'chai';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { SMALL_BATCH } from '../../../src/engine/compile/changes-queries.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { openBatch, readChanges, type ChangesRequest } from '../../../src/engine/read/read-changes.ts';
import type { ReadSession, Row } from '../../../src/engine/read/reads.ts';
import type { ApiError } from '../../../src/engine/request/api-error.ts';
import { createChangesCodec } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';

/**
 * The changes operation over the engine's port alone, with no database: a
 * fake session answers a batch's first statement (xmin, size) and its pages
 * with rows of the test's choosing, and records what it was asked.
 */
function fakeSession({ rows, items = 3, truncated = false, truncations = '' }: {
  rows: Row[];
  items?: number;
  truncated?: boolean;
  truncations?: string;
}): ReadSession & { asked: SqlFragment[] } {
  const asked: SqlFragment[] = [];
  return {
    asked,
    counts: () => Promise.reject(new Error('no counts')),
    rows: async (query) => {
      asked.push(query);
      if (query.sql.startsWith('select case when pg_is_in_recovery()')) return [{ snapshot: '100:100:', items, truncated, truncations }];
      return rows.map((row) => ({ ...row }));
    },
    count: async () => 0,
    mark: async () => 'mark-1',
  };
}

/** A carton size's row as the feed's statement gives it: the hidden id and deletion flag first, then the record's columns (timestamps as their JSON text). */
const upsert = (n: number, name: string): Row => ({
  __id: id(n), __deleted: false, id: id(n), name, lengthCm: '40.50', widthCm: null, heightCm: '10', createdAt: '"2026-03-01T09:30:00.25"', updatedAt: '"2026-03-02T00:00:00"',
});
const deleted = (n: number): Row => ({ __id: id(n), __deleted: true, id: null, name: null, lengthCm: null, widthCm: null, heightCm: null, createdAt: null, updatedAt: null });
/** The record the API gives for `upsert(n, name)`: the hidden columns left behind, the timestamps made the record's text. */
const record = (n: number, name: string): Row => ({
  id: id(n), name, lengthCm: '40.50', widthCm: null, heightCm: '10', createdAt: '2026-03-01T09:30:00.250Z', updatedAt: '2026-03-02T00:00:00.000Z',
});
const BRAND = '00000000-0000-4000-8000-000000000001';
const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const codec = createChangesCodec(createCursorCodec('x'.repeat(32)));
const NOW = Date.parse('2026-03-01T00:00:00Z');
const DAY = 86_400_000;

describe('read-changes over the Reads port (no database)', () => {
  let family: CompiledResource;
  const scope = { brandId: BRAND, family: 'carton-sizes' };
  before(async () => {
    family = compileRegistry(await loadRegistry()).get('carton-sizes')!;
  });
  const request = (changes: Partial<ChangesRequest>): ChangesRequest => ({ limit: 3, syncToken: null, cursor: null, fields: null, ...changes });
  const batchOf = (changes: Partial<ChangesRequest>, now = NOW) =>
    openBatch({ codec, brandId: BRAND, family, request: request(changes), retentionDays: 30, now });

  it('a first page after a token: sizes the batch, reads upserts and deletes in one statement, cuts at the limit', async () => {
    const token = codec.encodeToken(scope, { snapshot: '90:90:', madeAt: NOW - DAY, mark: null });
    const session = fakeSession({ rows: [upsert(1, 'a'), deleted(2), upsert(3, 'c'), upsert(4, 'd')] });
    const page = await readChanges({ session, family, request: request({ syncToken: token }), batch: batchOf({ syncToken: token }), codec, now: NOW });
    expect(page.items).to.deep.equal([
      { change: 'upsert', id: id(1), record: record(1, 'a') },
      { change: 'delete', id: id(2), record: null },
      { change: 'upsert', id: id(3), record: record(3, 'c') },
    ]);
    expect(page.syncToken).to.equal(null);
    expect(codec.decodeCursor(page.nextCursor!, scope)).to.deep.equal({ snapshot: '100:100:', madeAt: NOW, since: '90:90:', walk: 'small', after: id(3), mark: 'mark-1' });
    expect(session.asked).to.have.length(2);
    expect(session.asked[0]!.bindings).to.include('90');
    expect(session.asked[1]!.bindings).to.include('90');
    expect(session.asked[1]!.bindings).to.include(4);
  });

  it('a batch of more than SMALL_BATCH changes walks the ids', async () => {
    const token = codec.encodeToken(scope, { snapshot: '90:90:', madeAt: NOW - DAY, mark: null });
    const session = fakeSession({ rows: [upsert(1, 'a'), upsert(2, 'b'), upsert(3, 'c'), upsert(4, 'd')], items: SMALL_BATCH + 1 });
    const page = await readChanges({ session, family, request: request({ syncToken: token }), batch: batchOf({ syncToken: token }), codec, now: NOW });
    expect(codec.decodeCursor(page.nextCursor!, scope).walk).to.equal('large');
    expect(session.asked[1]!.sql).to.include('greatest(');
  });

  it('a later page starts after the cursor\'s id with no new snapshot; the last page gives the token: the first page\'s xmin and time', async () => {
    const first = codec.encodeCursor(scope, { snapshot: '95:95:', madeAt: NOW - 5000, since: '90:90:', walk: 'small', after: id(1), mark: 'mark-0' });
    const session = fakeSession({ rows: [upsert(5, 'c')] });
    const page = await readChanges({ session, family, request: request({ cursor: first }), batch: batchOf({ cursor: first }), codec, now: NOW });
    expect(session.asked).to.have.length(1);
    expect(session.asked[0]!.bindings).to.include(id(1));
    expect(page.items).to.have.length(1);
    expect(page.nextCursor).to.equal(null);
    expect(codec.decodeToken(page.syncToken!, scope)).to.deep.equal({ snapshot: '95:95:', madeAt: NOW - 5000, mark: 'mark-1' });
  });

  it('a full sync neither sizes the batch nor reads tombstones', async () => {
    const session = fakeSession({ rows: [] });
    const page = await readChanges({ session, family, request: request({}), batch: batchOf({}), codec, now: NOW });
    expect(page.items).to.deep.equal([]);
    expect(session.asked[0]!.sql).to.not.include('count(');
    expect(session.asked.some((query) => query.sql.includes('"sync_tombstones"'))).to.equal(false);
    expect(codec.decodeToken(page.syncToken!, scope)).to.deep.equal({ snapshot: '100:100:', madeAt: NOW, mark: 'mark-1' });
  });

  it('a page is read from a copy no older than the previous page\'s, and a batch from one no older than the last batch\'s last page', () => {
    const cursor = codec.encodeCursor(scope, { snapshot: '95:95:', madeAt: NOW, since: '90:90:', walk: 'small', after: id(1), mark: 'page-1' });
    expect(batchOf({ cursor }).mark).to.equal('page-1');
    expect(batchOf({ syncToken: codec.encodeToken(scope, { snapshot: '95:95:', madeAt: NOW, mark: 'last-page' }) }).mark).to.equal('last-page');
    expect(batchOf({ syncToken: codec.encodeToken(scope, { snapshot: '95:95:', madeAt: NOW, mark: null }) }).mark).to.equal(null);
    expect(batchOf({}).mark).to.equal(null);
  });

  it('a first page after a token that a TRUNCATE has made stale is 410 sync_token_expired, and reads no page', async () => {
    const token = codec.encodeToken(scope, { snapshot: '90:90:', madeAt: NOW - DAY, mark: null });
    const session = fakeSession({ rows: [upsert(1, 'a')], truncated: true });
    const error = await readChanges({ session, family, request: request({ syncToken: token }), batch: batchOf({ syncToken: token }), codec, now: NOW })
      .then(() => null, (thrown: ApiError) => thrown);
    expect(error?.errorCode).to.equal('sync_token_expired');
    expect(session.asked).to.have.length(1);
  });

  it('the truncations a batch\'s snapshot saw ride in its cursor and its token; the next batch tells them to its first statement', async () => {
    const session = fakeSession({ rows: [upsert(1, 'a'), upsert(2, 'b')], truncations: '105,107' });
    const first = await readChanges({ session, family, request: request({ limit: 1 }), batch: batchOf({ limit: 1 }), codec, now: NOW });
    const last = await readChanges({
      session, family, request: request({ cursor: first.nextCursor }), batch: batchOf({ cursor: first.nextCursor }), codec, now: NOW,
    });
    const token = codec.decodeToken(last.syncToken!, scope);
    expect(token.truncations).to.deep.equal(['105', '107']);
    const next = fakeSession({ rows: [] });
    await readChanges({ session: next, family, request: request({ syncToken: last.syncToken }), batch: batchOf({ syncToken: last.syncToken }), codec, now: NOW });
    expect(next.asked[0]!.bindings).to.include('105,107');
  });

  it('a token or a batch from one older than the retention is 410; a full sync\'s cursor never expires', () => {
    const expired = (run: () => unknown): string => {
      try {
        run();
        return 'none';
      } catch (error) {
        return (error as ApiError).errorCode;
      }
    };
    const old = codec.encodeToken(scope, { snapshot: '1:1:', madeAt: NOW - 31 * DAY, mark: null });
    expect(expired(() => batchOf({ syncToken: old }))).to.equal('sync_token_expired');
    expect(expired(() => batchOf({ syncToken: codec.encodeToken(scope, { snapshot: '1:1:', madeAt: NOW - 29 * DAY, mark: null }) }))).to.equal('none');
    const cursor = (since: string | null) => codec.encodeCursor(scope, {
      snapshot: '1:1:', madeAt: NOW - 31 * DAY, since, walk: since === null ? 'full' : 'small', after: id(1), mark: null,
    });
    expect(expired(() => batchOf({ cursor: cursor('1:1:') }))).to.equal('sync_token_expired');
    expect(expired(() => batchOf({ cursor: cursor(null) }))).to.equal('none');
  });
});
