import { expect } from 'chai';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { DERIVED_ROWS_PER_FAMILY, derivedRowCount, deriveRecords, derivedValue, linkTargetOf } from '../../../src/seed/derived-rows/derive-records.ts';

const widgets: ResourceDefinition = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, createdAt: { type: 'timestamp', nullable: false } } };
const gadgets: ResourceDefinition = {
  path: 'gadgets',
  scope: 'brand', area: 'catalog',
  fields: {
    id: { type: 'uuid' },
    widgetId: { type: 'uuid', references: 'widgets', nullable: false },
    spareWidgetId: { type: 'uuid', references: 'widgets' },
    ownerId: { type: 'uuid', description: 'Linked by the include alone.' },
    parentId: { type: 'uuid', references: 'gadgets' },
    serial: { type: 'uuid' },
    label: { type: 'string' },
    kind: { type: 'enum', values: ['small', 'large'] },
    count: { type: 'integer' },
    price: { type: 'decimal' },
    active: { type: 'boolean' },
    madeOn: { type: 'date' },
    madeAt: { type: 'timestamp' },
    spec: { type: 'json' },
    createdAt: { type: 'timestamp', nullable: false },
    updatedAt: { type: 'timestamp', nullable: false },
  },
  includes: { owner: { resource: 'widgets', on: { ownerId: 'id' } } },
};
const registry = createRegistry([widgets, gadgets]);
const resource = registry.get('gadgets');
const field = (name: string) => resource.fields.find((f) => f.name === name)!;

/** Ids `id-1`, `id-2`, ... in the order asked for. */
function ids(): () => string {
  let n = 0;
  return () => `id-${(n += 1)}`;
}

const AT = '2026-04-20T09:00:00.000Z';

describe('linkTargetOf', () => {
  it('is the family a field references, or the one a to-one include follows it to, or null', () => {
    expect(linkTargetOf(resource, field('widgetId'))).to.equal('widgets');
    expect(linkTargetOf(resource, field('ownerId'))).to.equal('widgets');
    expect(linkTargetOf(resource, field('parentId'))).to.equal('gadgets');
    expect(linkTargetOf(resource, field('serial'))).to.equal(null);
    expect(linkTargetOf(resource, field('label'))).to.equal(null);
  });
});

describe('derivedValue', () => {
  it('gives each type a value of its own, different for each row', () => {
    const value = (name: string, n: number) => derivedValue({ field: field(name), n, at: AT, newId: () => 'new' });
    expect([value('label', 1), value('label', 2)]).to.deep.equal(['label 1', 'label 2']);
    expect([1, 2, 3].map((n) => value('kind', n))).to.deep.equal(['small', 'large', 'small']);
    expect([value('count', 2), value('price', 2), value('active', 1), value('active', 2)]).to.deep.equal([2, '2.00', true, false]);
    expect([value('madeOn', 1), value('madeOn', 3)]).to.deep.equal(['2026-04-20', '2026-04-22']);
    expect(value('madeAt', 2)).to.equal('2026-04-21T09:00:00.000Z');
    expect(value('spec', 3)).to.deep.equal({ row: 3 });
    expect(value('serial', 1)).to.equal('new');
  });
});

describe('deriveRecords', () => {
  it('fills every column field but the timestamps put stamps, with ids from the sequence', () => {
    const [record] = deriveRecords({ resource, count: 1, poolOf: () => ['w1'], at: AT, newId: ids() });
    expect(record).to.have.all.keys('id', 'widgetId', 'spareWidgetId', 'ownerId', 'parentId', 'serial', 'label', 'kind', 'count', 'price', 'active', 'madeOn', 'madeAt', 'spec');
    expect(record).to.include({ id: 'id-1', serial: 'id-2', label: 'label 1' });
  });

  it('links the nth row to the nth row of the pool, round the pool, and rows after the first to the first', () => {
    const records = deriveRecords({ resource, count: 3, poolOf: (path) => (path === 'widgets' ? ['w1', 'w2'] : []), at: AT, newId: ids() });
    expect(records.map((r) => [r.widgetId, r.spareWidgetId, r.ownerId])).to.deep.equal([['w1', 'w1', 'w1'], ['w2', 'w2', 'w2'], ['w1', 'w1', 'w1']]);
    expect(records.map((r) => r.parentId)).to.deep.equal([null, records[0]!.id, records[0]!.id]);
  });

  it('leaves a nullable link empty when its pool is, and names the field of a required one', () => {
    const build = (pool: readonly string[]) => () => deriveRecords({ resource, count: 1, poolOf: (path) => (path === 'widgets' && pool.length ? pool : []), at: AT, newId: ids() });
    expect(() => build([])()).to.throw("demo seed: cannot derive rows of 'gadgets': 'widgetId' must point at a row of 'widgets', and there is none");
    const optional = createRegistry([widgets, { ...gadgets, fields: { ...gadgets.fields, widgetId: { type: 'uuid', references: 'widgets' } } }]).get('gadgets');
    const [record] = deriveRecords({ resource: optional, count: 1, poolOf: () => [], at: AT, newId: ids() });
    expect(record).to.include({ widgetId: null, spareWidgetId: null, ownerId: null, parentId: null });
  });

  it('points the first row of a family that must link to itself at itself', () => {
    const selfish = createRegistry([widgets, { ...gadgets, fields: { ...gadgets.fields, parentId: { type: 'uuid', references: 'gadgets', nullable: false } } }]).get('gadgets');
    const [first, second] = deriveRecords({ resource: selfish, count: 2, poolOf: () => ['w1'], at: AT, newId: ids() });
    expect(first!.parentId).to.equal(first!.id);
    expect(second!.parentId).to.equal(first!.id);
  });
});

describe('derivedRowCount', () => {
  const withUnique = (fields: ResourceDefinition['fields']) => createRegistry([widgets, { ...gadgets, fields: { ...gadgets.fields, ...fields } }]).get('gadgets');
  const pools = (size: number) => () => Array.from({ length: size }, (_, i) => `w${i}`);

  it('is the usual count when no unique field limits it', () => {
    expect(derivedRowCount({ resource, poolOf: pools(1) })).to.equal(DERIVED_ROWS_PER_FAMILY);
    expect(derivedRowCount({ resource: withUnique({ label: { type: 'string', unique: true } }), poolOf: pools(1) })).to.equal(DERIVED_ROWS_PER_FAMILY);
  });

  it('is no more than a unique field has distinct values: an enum\'s, a boolean\'s, a link\'s pool, a link to itself', () => {
    expect(derivedRowCount({ resource: withUnique({ kind: { type: 'enum', values: ['small', 'large'], unique: true } }), poolOf: pools(5) })).to.equal(2);
    expect(derivedRowCount({ resource: withUnique({ active: { type: 'boolean', unique: true } }), poolOf: pools(5) })).to.equal(2);
    expect(derivedRowCount({ resource: withUnique({ widgetId: { type: 'uuid', references: 'widgets', nullable: false, unique: true } }), poolOf: pools(1) })).to.equal(1);
    expect(derivedRowCount({ resource: withUnique({ parentId: { type: 'uuid', references: 'gadgets', unique: true } }), poolOf: pools(5) })).to.equal(2);
    expect(derivedRowCount({ resource: withUnique({ parentId: { type: 'uuid', references: 'gadgets', nullable: false, unique: true } }), poolOf: pools(5) })).to.equal(1);
  });
});
