import { expect } from 'chai';
import type { Field } from '../../../src/engine/definition/resource.ts';
import { SYNC_FILTERS, syncFilters } from '../../../src/engine/definition/sync-filters.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'timestamp', column: name, join: null, sourceColumn: `${name}_col`, nullable: false, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});

describe('syncFilters', () => {
  it('gives a since filter for each timestamp column field the family has', () => {
    const filters = syncFilters({ scope: 'brand', fields: [field('createdAt'), field('updatedAt')] });
    expect(filters.map((filter) => filter.name)).to.deep.equal(SYNC_FILTERS.map((sync) => sync.name));
    expect(filters[1]).to.deep.equal({
      name: 'updatedSince',
      match: 'since',
      targets: [{ label: 'updatedAt', join: null, column: 'updatedAt_col', type: 'timestamp', values: null }],
      description: null,
    });
    expect(Object.isFrozen(filters[1])).to.equal(true);
    expect(Object.isFrozen(filters[1]!.targets[0])).to.equal(true);
  });

  it('skips a field that is missing, not a timestamp or read from a join, and the tenant family', () => {
    expect(syncFilters({ scope: 'shared', fields: [field('createdAt')] }).map((f) => f.name)).to.deep.equal(['createdSince']);
    expect(syncFilters({ scope: 'brand', fields: [field('createdAt', { type: 'date' }), field('updatedAt', { join: 'x', column: null })] })).to.deep.equal([]);
    expect(syncFilters({ scope: 'tenant', fields: [field('createdAt'), field('updatedAt')] })).to.deep.equal([]);
  });
});
