import { expect } from 'chai';
import { RANGE_BOUNDS, rangeFilters, rangeParameter } from '../../../src/engine/definition/range-filters.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'reference', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const payments: ResourceDefinition = {
  path: 'payments',
  scope: 'brand', area: 'finance',
  fields: { id: { type: 'uuid' }, amount: { type: 'decimal', column: 'amount_paid' }, paidOn: { type: 'date' }, createdAt: { type: 'timestamp', nullable: false } },
  ranges: ['amount', 'paidOn'],
};

describe('rangeFilters', () => {
  const resource = createRegistry([brands, payments]).get('payments');
  const field = (name: string) => resource.fields.find((f) => f.name === name)!;

  it('names a bound as the bracket writes it', () => {
    expect(RANGE_BOUNDS).to.deep.equal(['gte', 'gt', 'lte', 'lt']);
    expect(rangeParameter('totalAmount', 'lt')).to.equal('totalAmount[lt]');
  });

  it('makes four filters per field, one per bound, each a match kind on the field\'s own column and type', () => {
    const filters = rangeFilters([field('amount'), field('paidOn')]);
    expect(filters.map((filter) => [filter.name, filter.match])).to.deep.equal([
      ['amount[gte]', 'gte'], ['amount[gt]', 'gt'], ['amount[lte]', 'lte'], ['amount[lt]', 'lt'],
      ['paidOn[gte]', 'gte'], ['paidOn[gt]', 'gt'], ['paidOn[lte]', 'lte'], ['paidOn[lt]', 'lt'],
    ]);
    expect(filters[0]!.targets).to.deep.equal([{ label: 'amount', join: null, column: 'amount_paid', type: 'decimal', values: null }]);
    expect(filters[4]!.targets[0]).to.include({ column: 'paid_on', type: 'date' });
    expect(filters.every((filter) => filter.description === null)).to.equal(true);
  });

  it('freezes the filters and their targets, and makes none for no field', () => {
    const [filter] = rangeFilters([field('amount')]);
    expect(Object.isFrozen(filter)).to.equal(true);
    expect(Object.isFrozen(filter!.targets)).to.equal(true);
    expect(Object.isFrozen(filter!.targets[0])).to.equal(true);
    expect(rangeFilters([])).to.deep.equal([]);
  });

  it('is how a family gets its range parameters: every range field\'s four bounds are among its filters', () => {
    const names = resource.filters.map((filter) => filter.name);
    for (const range of resource.ranges) {
      for (const bound of RANGE_BOUNDS) expect(names, range.name).to.include(rangeParameter(range.name, bound));
    }
    expect(resource.ranges.map((range) => range.name)).to.include.members(['createdAt', 'amount', 'paidOn']);
  });
});
