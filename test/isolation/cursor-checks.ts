import type { Resource } from '../../src/engine/definition/resource.ts';
import type { TestResponse } from '../support/test-server.ts';
import type { BrandName, KeyName } from './plant-world.ts';
import { assertNone, label, listPath, Problems, send, sendAll, type Matrix, type PathBrand, type Probe } from './probe.ts';
import { visibleRows } from './visibility.ts';

/**
 * Cursors are bound to the brand of the path (CONTRACT.md §3), not to the key:
 * a walk of A's list never leaves A's records, A's cursor is refused on B's
 * (or C's) list whatever the key, and it still works on A's list with another
 * key that may read A.
 */
export function defineCursorChecks(resource: Resource, matrix: () => Matrix): void {
  it('cursors: a walk of each brand\'s list stays in the brand; its cursor is cursor_mismatch on any other brand\'s list, with every key', async () => {
    const m = matrix();
    const problems = new Problems();
    const walkA = await walk(m, resource, 'A', 'keyA', problems);
    const walkB = await walk(m, resource, 'B', 'keyB', problems);
    const since = resource.filters.find((filter) => filter.match === 'since');
    const filtered = since ? { [since.name]: '2000-01-01T00:00:00.000Z' } : {};
    const firstA = await send(m, { path: listPath(m.world, resource, 'A', { ...filtered, limit: '1' }), key: 'keyA' });
    const filteredCursor = firstA.body?.nextCursor as string | undefined;
    // And a walk of A in another order: its cursor is A's too.
    const sorted = { sort: '-createdAt' };
    const sortedA = await send(m, { path: listPath(m.world, resource, 'A', { ...sorted, limit: '1' }), key: 'keyA' });
    const sortedCursor = sortedA.body?.nextCursor as string | undefined;

    const cases: { what: string; probe: Probe; status: number; errorCode?: string; page?: unknown }[] = [];
    const at = (brand: PathBrand, key: KeyName, cursor: string, params: Record<string, string> = {}): Probe =>
      ({ path: listPath(m.world, resource, brand, { ...params, limit: '1', cursor }), key });
    if (walkA.cursor) {
      const c = walkA.cursor;
      const what = 'the cursor of A\'s list';
      cases.push(
        { what, probe: at('B', 'keyB', c), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('B', 'global', c), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('C', 'keyAC', c), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('C', 'global', c), status: 400, errorCode: 'cursor_mismatch' },
        // The key check comes first: B's key never learns anything about A's cursor.
        { what, probe: at('A', 'keyB', c), status: 401, errorCode: 'unauthorized' },
        { what, probe: at('unknown', 'global', c), status: 404, errorCode: 'not_found' },
        // The same brand with another key that may read it: the walk goes on, in A.
        { what, probe: at('A', 'keyAC', c), status: 200, page: walkA.second },
        { what, probe: at('A', 'global', c), status: 200, page: walkA.second },
      );
    }
    if (walkB.cursor) {
      const what = 'the cursor of B\'s list';
      cases.push(
        { what, probe: at('A', 'keyA', walkB.cursor), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('A', 'global', walkB.cursor), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('A', 'keyAC', walkB.cursor), status: 400, errorCode: 'cursor_mismatch' },
      );
    }
    if (since && filteredCursor) {
      // A filtered walk of A, moved to B with the very same filter.
      cases.push({ what: `the cursor of A's list filtered by ${since.name}`, probe: at('B', 'global', filteredCursor, filtered), status: 400, errorCode: 'cursor_mismatch' });
    }
    if (sortedCursor) {
      const what = 'the cursor of A\'s list sorted by -createdAt';
      cases.push(
        { what, probe: at('B', 'global', sortedCursor, sorted), status: 400, errorCode: 'cursor_mismatch' },
        { what, probe: at('A', 'keyB', sortedCursor, sorted), status: 401, errorCode: 'unauthorized' },
      );
    } else problems.add(`[${resource.path}]`, 'A\'s list sorted by -createdAt has a single page');
    const responses = await sendAll(m, cases.map((c) => c.probe));
    cases.forEach(({ what, probe, status, errorCode, page }, i) => {
      const where = `${label(resource.path, probe)} (${what})`;
      if (!problems.status(where, responses[i]!, status, errorCode)) return;
      if (page !== undefined && JSON.stringify(responses[i]!.body?.items) !== JSON.stringify(page)) {
        problems.add(where, `the next page of A's walk differs: ${JSON.stringify(responses[i]!.body?.items)?.slice(0, 300)}`);
      }
    });
    if (!walkA.cursor) problems.add(`[${resource.path}]`, 'A\'s list has a single page: the world should give it at least two records');
    assertNone(problems);
  });
}

/**
 * Walks a brand's list one record a page: every page's records are the
 * brand's, none twice, all of them in the end, and every page says the same
 * `totalItems`. Returns the first cursor and the second page's items.
 */
async function walk(m: Matrix, resource: Resource, brand: BrandName, key: KeyName, problems: Problems): Promise<{ cursor: string | null; second: unknown }> {
  const brandId = m.world.brands[brand].id;
  const expected = visibleRows(m, resource, brandId).map((row) => String(row.record.id));
  const seen: unknown[] = [];
  let cursor: string | null = null;
  let first: string | null = null;
  let second: unknown = null;
  for (let page = 0; page <= expected.length; page += 1) {
    const probe: Probe = { path: listPath(m.world, resource, brand, cursor ? { limit: '1', cursor } : { limit: '1' }), key };
    const response: TestResponse = await send(m, probe);
    const where = `${label(resource.path, probe)} (page ${page + 1} of the walk)`;
    if (!problems.status(where, response, 200)) return { cursor: first, second };
    if (response.body.totalItems !== expected.length) problems.add(where, `totalItems is ${JSON.stringify(response.body.totalItems)}, expected ${expected.length}`);
    const items = response.body.items as { id: unknown }[];
    seen.push(...items.map((item) => item.id));
    if (page === 1) second = items;
    cursor = response.body.nextCursor as string | null;
    if (page === 0) first = cursor;
    if (cursor === null) break;
  }
  if (cursor !== null) problems.add(`[${resource.path}] walk of ${brand}'s list`, `still has a next page after ${expected.length + 1} pages`);
  problems.ids({ where: `[${resource.path}] walk of ${brand}'s list with ${key}, one record a page`, matrix: m, resource, brandId, actual: seen, expected });
  return { cursor: first, second };
}
