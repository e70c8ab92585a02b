import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import type { Filter } from '../../../src/engine/definition/resource.ts';
import type { SqlFragment } from '../../../src/engine/compile/sql-fragment.ts';
import { familiesInRun } from '../../support/families-in-run.ts';
import { testDatabase } from '../../support/test-database.ts';
import { listedFamilies } from '../../support/registry-lookups.ts';

/**
 * Every query the engine runs can be served by an index. With sequential
 * scans disabled the planner still picks one when it has no other path, so a
 * "Seq Scan" in the plan means a missing index, whatever the table's size:
 * on a big brand that query would read the whole table. (Which index serves a
 * filter depends on the data's statistics: test/db/schema/schema-diff.test.ts checks
 * that each filter has its own, and docs/PERFORMANCE.md shows the plans at
 * scale.)
 */

/** A valid value for a filter, from its match kind and type. */
function sampleValue(filter: Filter): unknown {
  const target = filter.targets[0]!;
  if (filter.match === 'contains-ci') return '%sample%';
  if (target.values) return target.values[0];
  switch (target.type) {
    case 'uuid': return randomUUID();
    case 'integer': return 1;
    case 'decimal': return '1.5';
    case 'boolean': return true;
    case 'date': return '2026-01-01';
    case 'timestamp': return '2026-01-01T00:00:00Z';
    default: return 'sample';
  }
}

interface PlanNode {
  readonly type: string;
  readonly relation: string | null;
  readonly index: string | null;
  readonly indexCondition: string | null;
  /** For a Sort: the tables whose rows reach it with no Limit or Aggregate between (it would sort them all). */
  readonly sorted: readonly string[];
}

/** The tables scanned under a plan node with no Limit or Aggregate on the way: the rows a Sort above it would sort. */
function unboundedScans(plan: Record<string, unknown>): string[] {
  const type = String(plan['Node Type']);
  if (type === 'Limit' || type === 'Aggregate') return [];
  const relation = plan['Relation Name'] as string | undefined;
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [...(relation ? [relation] : []), ...children.flatMap(unboundedScans)];
}

/** Every plan node's type, relation and index, from `explain (format json)`. */
function planNodes(plan: Record<string, unknown>): PlanNode[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  const node = {
    type: String(plan['Node Type']),
    relation: (plan['Relation Name'] as string | undefined) ?? null,
    index: (plan['Index Name'] as string | undefined) ?? null,
    indexCondition: (plan['Index Cond'] as string | undefined) ?? null,
    sorted: plan['Node Type'] === 'Sort' || plan['Node Type'] === 'Incremental Sort' ? children.flatMap(unboundedScans) : [],
  };
  return [node, ...children.flatMap(planNodes)];
}

/** The plan with sequential scans (and, with `noSort`, sorts) priced out: Postgres then takes any other path it has. */
async function explain(db: Knex, query: SqlFragment, { noSort = false }: { noSort?: boolean } = {}): Promise<PlanNode[]> {
  return db.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    if (noSort) {
      await trx.raw('set local enable_sort = off');
      await trx.raw('set local enable_incremental_sort = off');
    }
    const result = (await trx.raw(`explain (format json) ${query.sql}`, query.bindings as Knex.RawBinding[])) as { rows: Record<string, unknown>[] };
    const explained = result.rows[0]!['QUERY PLAN'];
    const plans = (typeof explained === 'string' ? JSON.parse(explained) : explained) as { Plan: Record<string, unknown> }[];
    return planNodes(plans[0]!.Plan);
  });
}

/**
 * What would make a question read or sort a whole brand's table: a
 * sequential scan of the family's table, or a sort of its rows (a sort of
 * a limited page or of grouped counts is not one).
 */
async function wholeTableWork(db: Knex, query: SqlFragment, table: string): Promise<string[]> {
  const nodes = await explain(db, query, { noSort: true });
  return [
    ...nodes.filter((node) => node.type === 'Seq Scan' && node.relation === table).map(() => `seq scan on ${table}`),
    ...nodes.filter((node) => node.sorted.includes(table)).map(() => `sort of ${table}'s rows`),
  ];
}

async function seqScans(db: Knex, query: SqlFragment): Promise<string[]> {
  return (await explain(db, query)).filter((node) => node.type === 'Seq Scan').map((node) => node.relation ?? '?');
}

/** The statement two requests of this query arriving together share (row-batcher.ts); the query itself when it has none. */
function batchOfTwo(query: SqlFragment): SqlFragment {
  if (!query.batch) return query;
  return { sql: query.batch.sql, bindings: (query.batch.travel?.(query.bindings) ?? query.bindings).map((value) => [value, value]) };
}

describe('query plans: every list, count, get and include query has an index', function () {
  this.timeout(120_000);
  let families: ReadonlyMap<string, CompiledResource>;
  /** Every family, for what a family in the run refers to (an include's family, the products' search). */
  let all: ReadonlyMap<string, CompiledResource>;
  let db: Knex;

  before(async () => {
    const database = await testDatabase();
    db = database.db;
    // Every family, or with TEST_FAMILY_SAMPLE=1 (the gate's embedded run) the sample holding every kind of
    // field, filter, sort, range, count and include: the tenant's family is checked in both.
    const inRun = new Set(familiesInRun(listedFamilies(database.registry)));
    all = compileRegistry(database.registry);
    families = new Map([...all].filter(([, family]) => family.resource.scope === 'tenant' || inRun.has(family.resource)));
  });

  it('lists and counts with no filter and with each filter alone', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const family of families.values()) {
      if (family.resource.scope === 'tenant') continue;
      const brandId = randomUUID();
      const cases: [string, Record<string, unknown>][] = [['no filter', {}], ...family.resource.filters.map((f): [string, Record<string, unknown>] => [f.name, { [f.name]: sampleValue(f) }])];
      for (const [label, filters] of cases) {
        const after = { createdAt: '2026-01-01T00:00:00.000000Z', id: randomUUID() };
        for (const [kind, query] of [
          ['page', family.queries.page({ sort: family.sorts.get('createdAt')!, brandId, filters, after: null, limit: 25 })],
          ['later page', family.queries.page({ sort: family.sorts.get('createdAt')!, brandId, filters, after, limit: 25 })],
          ['count', family.queries.count({ brandId, filters }).count],
          ['count still holds?', family.queries.count({ brandId, filters }).changedSince('990')],
          ['count still holds, ids in progress?', family.queries.count({ brandId, filters }).changedSince('990:995:991,993')],
        ] as const) {
          const scans = await seqScans(db, query);
          if (scans.length > 0) problems.push(`${family.resource.path} ${kind} (${label}): seq scan on ${scans.join(', ')}`);
          checked += 1;
        }
      }
    }
    expect(problems).to.deep.equal([]);
    const lists = [...families.values()].filter((family) => family.resource.scope !== 'tenant').length;
    expect(checked).to.be.above(lists * 3);
  });

  // CONTRACT.md section 8: every question a list accepts is answered from an index. Each sort in both directions,
  // on a first page and after cursors of every kind (a value, and a null for a nullable field: keyset-page.ts);
  // each bound of each range; each countable field's counts.
  it('answers every sort, range and count by an index: no sequential scan of the family table, no sort of its rows', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const family of families.values()) {
      const { resource, queries } = family;
      if (resource.scope === 'tenant') continue;
      const brandId = randomUUID();
      const check = async (label: string, query: SqlFragment): Promise<void> => {
        checked += 1;
        for (const problem of await wholeTableWork(db, query, resource.table)) problems.push(`${resource.path} ${label}: ${problem}`);
      };
      for (const sort of family.sorts.values()) {
        const keyed = sort.field.name !== 'createdAt';
        const value = keyed ? String(sampleValue({ name: sort.field.name, match: 'exact', targets: [{ label: '', join: null, column: sort.field.sourceColumn, type: sort.field.type, values: sort.field.values }], description: null })) : undefined;
        const afters = [null, { createdAt: '2026-01-01T00:00:00.000000Z', id: randomUUID(), ...(keyed ? { key: value } : {}) }];
        if (keyed && sort.field.nullable) afters.push({ createdAt: '2026-01-01T00:00:00.000000Z', id: randomUUID(), key: null as unknown as string });
        for (const after of afters) {
          await check(`sort=${sort.name} ${after === null ? 'first page' : `after ${after.key === null ? 'a null' : 'a value'}`}`, queries.page({ brandId, filters: {}, after, limit: 25, sort }));
        }
      }
      for (const filter of resource.filters.filter((f) => ['gte', 'gt', 'lte', 'lt'].includes(f.match))) {
        const filters = { [filter.name]: sampleValue(filter) };
        await check(`${filter.name} page`, queries.page({ brandId, filters, after: null, limit: 25, sort: family.sorts.get('createdAt')! }));
        await check(`${filter.name} count`, queries.count({ brandId, filters }).count);
      }
      for (const by of resource.countable) await check(`counts by ${by.name}`, queries.counts({ brandId, filters: {}, by }).counts);
    }
    expect(problems).to.deep.equal([]);
    // Every list sorts by createdAt both ways at least, on a first page and after a cursor.
    expect(checked).to.be.at.least([...families.values()].filter((family) => family.resource.scope !== 'tenant').length * 4);
  });

  it('tells a sort of the table\'s rows from a sort of a page: it would catch an order no index gives', async () => {
    const brand = randomUUID();
    // Postgres's btree gives `desc nulls first`; `desc nulls last` is an order no index of the family gives.
    const unserved = { sql: 'select t.* from "products" t where t."brand_id" = ? order by t."created_at" desc nulls last limit 5', bindings: [brand] };
    expect(await wholeTableWork(db, unserved, 'products')).to.deep.equal(["sort of products's rows"]);
    const served = { sql: 'select * from (select t.* from "products" t where t."brand_id" = ? order by t."created_at" desc limit 5) p order by p."code"', bindings: [brand] };
    expect(await wholeTableWork(db, served, 'products')).to.deep.equal([]);
  });

  it('reads the changes feed (each walk, first and later pages, the sizing of a batch, the live probe) by an index', async () => {
    const problems: string[] = [];
    for (const family of families.values()) {
      if (family.resource.scope === 'tenant') continue;
      const brandId = randomUUID();
      const queries: [string, SqlFragment][] = [
        ['start', family.changes.start({ brandId, since: '990:996:992', seen: ['995'] })],
        ['live probe', family.changesProbe.probe({ brandIds: [brandId, randomUUID()], since: 990n, running: new Map([[brandId, [991n, 993n]]]) })],
      ];
      for (const walk of ['full', 'small', 'large'] as const) {
        for (const after of [null, randomUUID()]) {
          queries.push([`${walk} page${after ? ' after' : ''}`, family.changes.page({ brandId, since: walk === 'full' ? null : '990:996:992', walk, after, limit: 101 })]);
        }
      }
      for (const [label, query] of queries) {
        const scans = await seqScans(db, query);
        if (scans.length > 0) problems.push(`${family.resource.path} ${label}: seq scan on ${scans.join(', ')}`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('gets one record by id, and loads each include by its key, alone and in a batch of requests', async () => {
    const problems: string[] = [];
    const check = async (label: string, query: SqlFragment): Promise<void> => {
      for (const [form, plan] of [['', query], [' batched', batchOfTwo(query)]] as const) {
        const scans = await seqScans(db, plan);
        if (scans.length > 0) problems.push(`${label}${form}: seq scan on ${scans.join(', ')}`);
      }
    };
    for (const family of families.values()) {
      const brandId = randomUUID();
      await check(`${family.resource.path} one`, family.queries.one({ brandId, id: randomUUID() }));
      for (const include of family.resource.includes) {
        const related = all.get(include.resource)!;
        await check(`${family.resource.path} include ${include.name}`, related.queries.matching({ brandId, field: include.remoteField, values: [randomUUID(), randomUUID()], limit: 5001 }));
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('counts a search by the brand-leading trigram indexes: brand and word are both index conditions', async () => {
    const products = all.get('products')!;
    const [mine, other] = [randomUUID(), randomUUID()];
    const { count } = products.queries.count({ brandId: mine, filters: { search: 'parka' } });
    // In a transaction rolled back at the end, statistics included: other tests see none of it.
    const trx = await db.transaction();
    try {
      await trx.raw(`insert into brands (id, slug, name) values (?, 'plan-mine', 'Mine'), (?, 'plan-other', 'Other')`, [mine, other]);
      // The word in 0.5 % of this brand's rows and 4 % of the other's (3.4 % of the big brand's at 1M rows): a
      // bare-column index would visit the other brand's matches too. Below about this size, filtering the brand's
      // rows is cheaper than reading trigrams, and the planner rightly uses the index for the brand alone.
      const insert = `insert into products (brand_id, code, name, status)
        select ?, 'P-' || g, case when g % ? = 0 then 'Parka ' || g else 'Shirt ' || g end, 'approved' from generate_series(1, ?) g`;
      await trx.raw(insert, [mine, 200, 5000]);
      await trx.raw(insert, [other, 25, 20000]);
      // New entries wait in each GIN index's pending list, which the planner prices high; VACUUM (not allowed in a
      // transaction) would merge them, as autovacuum does in service.
      await trx.raw(`select gin_clean_pending_list(indexrelid) from pg_index where indrelid = 'products'::regclass and indexrelid::regclass::text like '%trgm'`);
      await trx.raw('analyze products');
      const scans = (await explain(trx, count)).filter((node) => node.index !== null).map((node) => ({
        index: node.index,
        byBrand: node.indexCondition?.includes('brand_id =') ?? false,
        byWord: node.indexCondition?.includes('~~*') ?? false,
      }));
      expect(scans).to.have.deep.members([
        { index: 'products_brand_id_name_trgm', byBrand: true, byWord: true },
        { index: 'products_brand_id_code_trgm', byBrand: true, byWord: true },
      ]);
      const found = (await trx.raw(count.sql, count.bindings as Knex.RawBinding[])) as { rows: { total: number }[] };
      expect(found.rows[0]!.total).to.equal(25);
    } finally {
      await trx.rollback();
    }
  });
});
