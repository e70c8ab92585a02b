import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { compileRegistry, type CompiledResource } from '../../src/engine/compiled-resource.ts';
import type { Filter } from '../../src/engine/resource.ts';
import type { SqlFragment } from '../../src/engine/sql-fragment.ts';
import { testDatabase } from '../support/test-database.ts';

/**
 * Every query the engine runs can be served by an index. With sequential
 * scans disabled the planner still picks one when it has no other path, so a
 * "Seq Scan" in the plan means a missing index, whatever the table's size:
 * on a big brand that query would read the whole table. (Which index serves a
 * filter depends on the data's statistics: test/db/schema-diff.test.ts checks
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
}

/** Every plan node's type and relation, from `explain (format json)`. */
function planNodes(plan: Record<string, unknown>): PlanNode[] {
  const node = { type: String(plan['Node Type']), relation: (plan['Relation Name'] as string | undefined) ?? null };
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [node, ...children.flatMap(planNodes)];
}

async function explain(db: Knex, query: SqlFragment): Promise<PlanNode[]> {
  return db.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    const result = (await trx.raw(`explain (format json) ${query.sql}`, query.bindings as Knex.RawBinding[])) as { rows: Record<string, unknown>[] };
    const explained = result.rows[0]!['QUERY PLAN'];
    const plans = (typeof explained === 'string' ? JSON.parse(explained) : explained) as { Plan: Record<string, unknown> }[];
    return planNodes(plans[0]!.Plan);
  });
}

async function seqScans(db: Knex, query: SqlFragment): Promise<string[]> {
  return (await explain(db, query)).filter((node) => node.type === 'Seq Scan').map((node) => node.relation ?? '?');
}

describe('query plans: every list, count, get and include query has an index', function () {
  this.timeout(120_000);
  let families: ReadonlyMap<string, CompiledResource>;
  let db: Knex;

  before(async () => {
    const database = await testDatabase();
    db = database.db;
    families = compileRegistry(database.registry);
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
          ['page', family.queries.page({ brandId, filters, after: null, limit: 25 })],
          ['later page', family.queries.page({ brandId, filters, after, limit: 25 })],
          ['count', family.queries.count({ brandId, filters })],
        ] as const) {
          const scans = await seqScans(db, query);
          if (scans.length > 0) problems.push(`${family.resource.path} ${kind} (${label}): seq scan on ${scans.join(', ')}`);
          checked += 1;
        }
      }
    }
    expect(problems).to.deep.equal([]);
    expect(checked).to.be.above(92 * 3);
  });

  it('gets one record by id, and loads each include by its key', async () => {
    const problems: string[] = [];
    for (const family of families.values()) {
      const brandId = randomUUID();
      const one = await seqScans(db, family.queries.one({ brandId, id: randomUUID() }));
      if (one.length > 0) problems.push(`${family.resource.path} one: seq scan on ${one.join(', ')}`);
      for (const include of family.resource.includes) {
        const related = families.get(include.resource)!;
        const scans = await seqScans(db, related.queries.matching({ brandId, field: include.remoteField, values: [randomUUID(), randomUUID()], limit: 5001 }));
        if (scans.length > 0) problems.push(`${family.resource.path} include ${include.name}: seq scan on ${scans.join(', ')}`);
      }
    }
    expect(problems).to.deep.equal([]);
  });
});
