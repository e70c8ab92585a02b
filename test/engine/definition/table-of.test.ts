import { expect } from 'chai';
import { tableOf } from '../../../src/engine/definition/table-of.ts';

describe('tableOf', () => {
  it('is the declared table, or the path in snake case', () => {
    expect(tableOf({ path: 'units-of-measure', scope: 'shared', area: 'catalog', fields: {} })).to.equal('units_of_measure');
    expect(tableOf({ path: 'brands', table: 'tenants', scope: 'tenant', area: 'catalog', fields: {} })).to.equal('tenants');
  });
});
