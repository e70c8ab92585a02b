import { expect } from 'chai';
import { compileQueries } from '../../../src/engine/compile/compile-queries.ts';
import { listSorts } from '../../../src/engine/compile/list-sorts.ts';
import { CURRENT_SNAPSHOT_SQL } from '../../../src/engine/compile/snapshot-text.ts';
import { loadRegistry, type Registry } from '../../../src/engine/definition/registry.ts';

const BRAND = '11111111-1111-4111-8111-111111111111';
/** Section 3's order of products. */
const DEFAULT_SORT_OF = (registry: Registry) => listSorts(registry.get('products')).get('createdAt')!;

describe('compileQueries', () => {
  // The engine compiles SQL without a database: the registry is all it needs.
  let registry: Registry;
  before(async () => {
    registry = await loadRegistry();
  });

  it('reads a page in keyset order, chooses its rows before joining the category label for the brand, and binds every value', () => {
    const queries = compileQueries(registry.get('products'));
    const page = queries.page({
      sort: DEFAULT_SORT_OF(registry),
      brandId: BRAND,
      filters: { status: 'approved', search: 'tee' },
      after: { createdAt: '2026-03-01T09:30:00.123456Z', id: '22222222-2222-4222-8222-222222222222' },
      limit: 25,
    });
    // The rows by keyset first, with the limit; the join after, over those rows only (one plan for every cursor).
    expect(page.sql).to.contain('from (select t.* from "products" t where t."brand_id" = ? and t."status" = ? and (t."name" ilike ? or t."code" ilike ?)');
    expect(page.sql).to.contain('and (t."created_at", t."id") > (?::timestamptz, ?::uuid) order by t."created_at", t."id" limit 26) t left join "categories" j_category on j_category."id" = t."category_id" and j_category."brand_id" = ?');
    expect(page.sql).to.match(/j_category\."brand_id" = \? order by t\."created_at", t\."id"$/);
    expect(page.bindings).to.deep.equal([BRAND, 'approved', '%tee%', '%tee%', '2026-03-01T09:30:00.123456Z', '22222222-2222-4222-8222-222222222222', BRAND]);
    expect(page.sql).to.not.contain('approved');
    // A search's best plan depends on its word: planned for each request, never prepared.
    expect(page.prepare).to.equal(false);
  });

  it('hides the brand and the cursor of a prepared page from the planner, so its generic plan is kept', () => {
    const queries = compileQueries(registry.get('products'));
    const after = { createdAt: '2026-03-01T09:30:00.123456Z', id: '22222222-2222-4222-8222-222222222222' };
    const page = queries.page({ sort: DEFAULT_SORT_OF(registry), brandId: BRAND, filters: { status: 'approved' }, after, limit: 100 });
    expect(page.prepare).to.equal(true);
    expect(page.sql).to.contain('from (select t.* from "products" t where t."brand_id" = (select ?::uuid) and t."status" = ?');
    expect(page.sql).to.contain('and (t."created_at", t."id") > ((select ?::timestamptz), (select ?::uuid)) order by t."created_at", t."id" limit 101) t left join');
    expect(page.bindings).to.deep.equal([BRAND, 'approved', after.createdAt, after.id, BRAND]);
    // Two cursors of the same walk: one statement text, so one prepared statement and one generic plan.
    const later = queries.page({ sort: DEFAULT_SORT_OF(registry), brandId: BRAND, filters: { status: 'approved' }, after: { ...after, id: '33333333-3333-4333-8333-333333333333' }, limit: 100 });
    expect(later.sql).to.equal(page.sql);
    expect(() => queries.page({ sort: DEFAULT_SORT_OF(registry), brandId: BRAND, filters: {}, after: null, limit: 1.5 })).to.throw(/not a page size/);
  });

  it('lets a list be prepared only when none of its filters needs a plan for its value', () => {
    const queries = compileQueries(registry.get('products'));
    const list = (filters: Record<string, unknown>) => ({
      page: queries.page({ sort: DEFAULT_SORT_OF(registry), brandId: BRAND, filters, after: null, limit: 25 }).prepare,
      count: queries.count({ brandId: BRAND, filters }).count.prepare,
    });
    expect(list({})).to.deep.equal({ page: true, count: true });
    expect(list({ status: 'approved' })).to.deep.equal({ page: true, count: true });
    expect(list({ search: 'tee' })).to.deep.equal({ page: false, count: false });
    expect(list({ updatedSince: '2026-03-01T00:00:00Z' })).to.deep.equal({ page: false, count: false });
    expect(queries.one({ brandId: BRAND, id: '22222222-2222-4222-8222-222222222222' }).prepare).to.not.equal(false);
  });

  it('reads an include\'s records with the keys as one array, one statement whatever their number', () => {
    const queries = compileQueries(registry.get('skus'));
    const keys = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
    const two = queries.matching({ brandId: BRAND, field: 'productId', values: keys, limit: 5001 });
    const one = queries.matching({ brandId: BRAND, field: 'productId', values: keys.slice(0, 1), limit: 5001 });
    expect(two.sql).to.equal(one.sql);
    expect(two.sql).to.contain('= any(?) order by t."created_at", t."id" limit ?');
    expect(two.bindings.slice(-2)).to.deep.equal([keys, 5001]);
    // Requests arriving together share one statement, whatever their number of keys: each request's keys as one literal.
    expect(two.batch!.sql).to.equal(one.batch!.sql);
    expect(two.batch!.sql).to.contain('= any(r."p2"::uuid[]) order by t."created_at", t."id" limit r."p3") q order by r."i", q."__place"');
    expect(two.batch!.travel!(two.bindings)).to.deep.equal([BRAND, `{"${keys[0]}","${keys[1]}"}`, 5001]);
    // A key of a type whose text may not cast (a timestamp) never travels in a batch: it runs alone.
    expect(queries.matching({ brandId: BRAND, field: 'createdAt', values: ['2026-01-01T00:00:00.000Z'], limit: 5001 }).batch).to.equal(undefined);
    const byCode = queries.matching({ brandId: BRAND, field: 'code', values: ['A"1'], limit: 5001 });
    expect(byCode.batch!.travel!(byCode.bindings)).to.deep.equal([BRAND, '{"A\\"1"}', 5001]);
  });

  it('counts with the same conditions and no joins, and limits shared families to the brand and shared rows', () => {
    const { count } = compileQueries(registry.get('units-of-measure')).count({ brandId: BRAND, filters: { type: 'length' } });
    expect(count).to.deep.equal({
      sql: `select count(*)::int as "total", ${CURRENT_SNAPSHOT_SQL} as "snapshot" from "units_of_measure" t where (t."brand_id" = ? or t."brand_id" is null) and t."type" = ?`,
      bindings: [BRAND, 'length'],
      prepare: true,
      label: { family: 'units-of-measure', table: 'units_of_measure', operation: 'count' },
    });
  });

  it('reads the tenant family by the brand itself', () => {
    const one = compileQueries(registry.get('brands')).one({ brandId: BRAND, id: 'ignored' });
    expect(one.sql).to.match(/from "brands" t where t."id" = \?$/);
    expect(one.bindings).to.deep.equal([BRAND]);
  });
});
