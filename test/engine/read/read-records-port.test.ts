import { expect } from 'chai';
import type { ListSort } from '../../../src/engine/compile/list-sorts.ts';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { CURSOR_COLUMN } from '../../../src/engine/compile/compile-queries.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { getRecord, listRecords, openWalk } from '../../../src/engine/read/read-records.ts';
import type { ReadSession, Row } from '../../../src/engine/read/reads.ts';
import { createCursorCodec } from '../../../src/engine/request/cursor-codec.ts';

/**
 * The operations over the engine's port alone, with no database: a fake
 * session answers each compiled plan with rows of the test's choosing and
 * records what it was asked.
 */
function fakeSession(answer: (query: SqlFragment) => Row[], total = 0): ReadSession & { asked: SqlFragment[]; counted: string[] } {
  const asked: SqlFragment[] = [];
  const counted: string[] = [];
  return {
    asked,
    counted,
    rows: async (query) => {
      asked.push(query);
      return answer(query).map((row) => ({ ...row }));
    },
    count: async (key) => {
      counted.push(key);
      return total;
    },
    counts: async (key) => {
      counted.push(key);
      return [];
    },
    mark: async () => 'mark-1',
  };
}

const BRAND = '00000000-0000-4000-8000-000000000001';
const cursors = createCursorCodec('x'.repeat(32));
const request = { limit: 2, cursor: null, filters: {}, includes: [], fields: null, sort: { name: 'createdAt', field: { name: 'createdAt' }, descending: false } as ListSort };

describe('read-records over the Reads port (no database)', () => {
  let families: Awaited<ReturnType<typeof compileRegistry>>;
  before(async () => {
    families = compileRegistry(await loadRegistry());
  });

  it('gives null for a get the port answers with no row, after exactly one query', async () => {
    const session = fakeSession(() => []);
    const family = families.get('carton-sizes')!;
    expect(await getRecord({ session, families, brandId: BRAND, family, id: BRAND, includes: [] })).to.equal(null);
    expect(session.asked).to.have.length(1);
    expect(session.asked[0]!.bindings).to.include(BRAND);
  });

  it('cuts a page at the limit, counts by family, brand and filters, and signs a cursor with the mark', async () => {
    const rows = [1, 2, 3].map((n) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, name: `box ${n}`, [CURSOR_COLUMN]: `"2026-01-0${n}T00:00:00.25"` }));
    const session = fakeSession(() => rows, 3);
    const family = families.get('carton-sizes')!;
    const walk = openWalk({ cursors, brandId: BRAND, family, request });
    const page = await listRecords({ session, families, brandId: BRAND, family, request, walk, cursors });
    expect(page.items.map((item) => item.name)).to.deep.equal(['box 1', 'box 2']);
    expect(page.items[0]).to.not.have.property(CURSOR_COLUMN);
    expect(page.totalItems).to.equal(3);
    expect(session.counted).to.deep.equal([`carton-sizes\u0000${BRAND}\u0000${walk.scope.filterHash}`]);
    const next = cursors.decode(page.nextCursor!, walk.scope);
    expect(next).to.deep.include({ totalItems: 3, mark: 'mark-1' });
    // The database's JSON text of the last row's creation, as a cursor's text.
    expect(next.position).to.deep.equal({ createdAt: '2026-01-02T00:00:00.250000Z', id: rows[1]!.id });
  });

  it('takes a later page total from its cursor, without counting', async () => {
    const session = fakeSession(() => []);
    const family = families.get('carton-sizes')!;
    const first = openWalk({ cursors, brandId: BRAND, family, request });
    const cursor = cursors.encode(first.scope, { position: { createdAt: '2026-01-01T00:00:00.000000Z', id: BRAND }, totalItems: 7, mark: null });
    const later = { ...request, cursor };
    const page = await listRecords({ session, families, brandId: BRAND, family, request: later, walk: openWalk({ cursors, brandId: BRAND, family, request: later }), cursors });
    expect(page).to.deep.equal({ items: [], nextCursor: null, totalItems: 7 });
    expect(session.counted).to.deep.equal([]);
  });
});
