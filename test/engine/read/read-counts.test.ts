import { expect } from 'chai';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import type { CountsPlan } from '../../../src/engine/compile/counts-query.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { countRecords } from '../../../src/engine/read/read-counts.ts';
import type { ReadSession, Row } from '../../../src/engine/read/reads.ts';

const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'reference', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const orders: ResourceDefinition = {
  path: 'orders',
  scope: 'brand', area: 'orders',
  fields: { id: { type: 'uuid' }, status: { type: 'string' }, orderedOn: { type: 'date' }, createdAt: { type: 'timestamp', nullable: false } },
  filters: { status: { field: 'status', match: 'exact' } },
  countable: ['status', 'orderedOn'],
};
const family = compileRegistry(createRegistry([brands, orders])).get('orders')!;
const BRAND = '0b1e0000-0000-4000-8000-000000000001';

/** A session that answers counts with fixed rows (the engine's port: reads.ts), noting what it was asked. */
function sessionAnswering(rows: readonly Row[]): ReadSession & { asked: { key: string; plan: CountsPlan }[] } {
  const asked: { key: string; plan: CountsPlan }[] = [];
  return {
    asked,
    rows: () => Promise.reject(new Error('not asked here')),
    count: () => Promise.reject(new Error('not asked here')),
    counts: async (key, plan) => {
      asked.push({ key, plan });
      return rows;
    },
    mark: async () => null,
  };
}

const by = (name: string) => family.resource.countable.find((field) => field.name === name)!;

describe('countRecords (read/read-counts.ts)', () => {
  it('writes the body from the statement\'s rows: each value and count, the total, and what is past the listed values', async () => {
    const session = sessionAnswering([
      { value: 'open', count: 5, total: 12 },
      { value: null, count: 3, total: 12 },
      { value: 'closed', count: 1, total: 12 },
    ]);
    const body = await countRecords({ session, family, brandId: BRAND, request: { by: by('status'), filters: {} } });
    expect(body).to.deep.equal({ by: 'status', counts: [{ value: 'open', count: 5 }, { value: null, count: 3 }, { value: 'closed', count: 1 }], otherItems: 3, totalItems: 12 });
  });

  it('answers no values and no records when nothing matches (the statement\'s row of no group)', async () => {
    const body = await countRecords({ session: sessionAnswering([{ value: null, count: null, total: null }]), family, brandId: BRAND, request: { by: by('status'), filters: {} } });
    expect(body).to.deep.equal({ by: 'status', counts: [], otherItems: 0, totalItems: 0 });
  });

  it('writes a value as the record writes its field: a date from its JSON text', async () => {
    const session = sessionAnswering([{ value: '"2026-03-01"', count: 2, total: 2 }]);
    const body = await countRecords({ session, family, brandId: BRAND, request: { by: by('orderedOn'), filters: {} } });
    expect(body.counts).to.deep.equal([{ value: '2026-03-01', count: 2 }]);
  });

  it('remembers counts by family, field, brand and filters: the same key for the same filters in any order, another for any other', async () => {
    const session = sessionAnswering([]);
    const ask = (field: string, filters: Record<string, unknown>, brandId = BRAND) => countRecords({ session, family, brandId, request: { by: by(field), filters } });
    await ask('status', { status: ['open', 'closed'] });
    await ask('status', { status: ['closed', 'open'] });
    await ask('status', {});
    await ask('orderedOn', {});
    await ask('status', {}, '0b1e0000-0000-4000-8000-000000000002');
    const keys = session.asked.map(({ key }) => key);
    expect(keys[0]).to.equal(keys[1]);
    expect(new Set(keys).size).to.equal(4);
    expect(keys[2]).to.match(/^orders\u0000counts\u0000status\u00000b1e0000-0000-4000-8000-000000000001\u0000/);
    const own = family.queries.counts({ brandId: BRAND, filters: { status: ['open', 'closed'] }, by: by('status') });
    expect(session.asked[0]!.plan.counts, 'the family\'s own statement').to.deep.equal(own.counts);
  });
});
