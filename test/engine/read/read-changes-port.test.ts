import { expect } from 'chai';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { openBatch, readChanges, type ChangesRequest } from '../../../src/engine/read/read-changes.ts';
import type { ReadSession, Row } from '../../../src/engine/read/reads.ts';
import type { ApiError } from '../../../src/engine/request/api-error.ts';
import { createChangesCodec } from '../../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';

/**
 * The changes operation over the engine's port alone, with no database: a
 * fake session answers the snapshot, upsert and delete plans with rows of the
 * test's choosing and records what it was asked.
 */
function fakeSession({ upserts, deletes }: { upserts: Row[]; deletes: Row[] }): ReadSession & { asked: SqlFragment[] } {
  const asked: SqlFragment[] = [];
  return {
    asked,
    rows: async (query) => {
      asked.push(query);
      if (query.sql.startsWith('select pg_current_snapshot()')) return [{ snapshot: '100:120:104,110' }];
      return (query.sql.includes('"sync_tombstones"') ? deletes : upserts).map((row) => ({ ...row }));
    },
    count: async () => 0,
    mark: async () => 'mark-1',
  };
}

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

  it('merges upserts and deletes by (sync_xid, id), comparing ids of transactions as numbers, and cuts at the limit', async () => {
    const token = codec.encodeToken(scope, { xmin: '90', madeAt: NOW - DAY });
    const session = fakeSession({
      upserts: [{ id: id(2), name: 'b', __xid: '99' }, { id: id(1), name: 'a', __xid: '100' }, { id: id(5), name: 'c', __xid: '100' }],
      deletes: [{ id: id(3), __xid: '99' }, { id: id(4), __xid: '1000' }],
    });
    const page = await readChanges({ session, family, request: request({ syncToken: token }), batch: batchOf({ syncToken: token }), codec, now: NOW });
    expect(page.items).to.deep.equal([
      { change: 'upsert', id: id(2), record: { id: id(2), name: 'b' } },
      { change: 'delete', id: id(3), record: null },
      { change: 'upsert', id: id(1), record: { id: id(1), name: 'a' } },
    ]);
    expect(page.syncToken).to.equal(null);
    const cursor = codec.decodeCursor(page.nextCursor!, scope);
    expect(cursor).to.deep.equal({ snapshot: '100:120:104,110', madeAt: NOW, since: '90', after: { xid: '100', id: id(1) }, mark: 'mark-1' });
    expect(session.asked[1]!.bindings).to.include('90');
  });

  it('a later page reuses the cursor\'s snapshot (no new one); the last page gives the token: the snapshot\'s xmin, the first page\'s time', async () => {
    const first = codec.encodeCursor(scope, { snapshot: '100:120:104,110', madeAt: NOW - 5000, since: '90', after: { xid: '100', id: id(1) }, mark: null });
    const session = fakeSession({ upserts: [{ id: id(5), name: 'c', __xid: '100' }], deletes: [] });
    const page = await readChanges({ session, family, request: request({ cursor: first }), batch: batchOf({ cursor: first }), codec, now: NOW });
    expect(session.asked.some((query) => query.sql.includes('pg_current_snapshot()'))).to.equal(false);
    expect(page.items).to.have.length(1);
    expect(page.nextCursor).to.equal(null);
    expect(codec.decodeToken(page.syncToken!, scope)).to.deep.equal({ xmin: '100', madeAt: NOW - 5000 });
  });

  it('a full sync reads no tombstones', async () => {
    const session = fakeSession({ upserts: [], deletes: [{ id: id(3), __xid: '99' }] });
    const page = await readChanges({ session, family, request: request({}), batch: batchOf({}), codec, now: NOW });
    expect(page.items).to.deep.equal([]);
    expect(session.asked.some((query) => query.sql.includes('"sync_tombstones"'))).to.equal(false);
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
    const old = codec.encodeToken(scope, { xmin: '1', madeAt: NOW - 31 * DAY });
    expect(expired(() => batchOf({ syncToken: old }))).to.equal('sync_token_expired');
    expect(expired(() => batchOf({ syncToken: codec.encodeToken(scope, { xmin: '1', madeAt: NOW - 29 * DAY }) }))).to.equal('none');
    const cursor = (since: string | null) => codec.encodeCursor(scope, { snapshot: '1:1:', madeAt: NOW - 31 * DAY, since, after: { xid: '1', id: id(1) }, mark: null });
    expect(expired(() => batchOf({ cursor: cursor('1') }))).to.equal('sync_token_expired');
    expect(expired(() => batchOf({ cursor: cursor(null) }))).to.equal('none');
  });
});
