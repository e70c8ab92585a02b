import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { normalizeJoins } from '../../../src/engine/definition/normalize-joins.ts';
import { definitionFailure } from './definition-failure.ts';
import type { JoinDefinition, ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const gadgets: ResourceDefinition = { path: 'gadgets', scope: 'shared', area: 'catalog', fields: { id: { type: 'uuid' } } };
const units: ResourceDefinition = { path: 'units-of-measure', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' } } };
const definitions = new Map([['gadgets', gadgets], ['units-of-measure', units]]);

function joins(declared: Record<string, unknown>) {
  return normalizeJoins({ declared: declared as Record<string, JoinDefinition>, definitions, checks: definitionChecks('widgets') });
}

const failure = (declared: Record<string, unknown>): string => definitionFailure(() => joins(declared));

describe('normalizeJoins', () => {
  it('resolves each join to the family that reads its table, with that family\'s scope', () => {
    const resolved = joins({ gadget: { table: 'gadgets', on: { gadget_id: 'id' } }, unit: { table: 'units_of_measure', on: { unit_id: 'id' } } });
    expect(resolved).to.deep.equal({
      gadget: { name: 'gadget', table: 'gadgets', localColumn: 'gadget_id', foreignColumn: 'id', scope: 'shared' },
      unit: { name: 'unit', table: 'units_of_measure', localColumn: 'unit_id', foreignColumn: 'id', scope: 'brand' },
    });
    expect(Object.isFrozen(resolved)).to.equal(true);
    expect(Object.isFrozen(resolved.gadget)).to.equal(true);
    expect(joins({})).to.deep.equal({});
  });

  it('names a table no family reads, suggesting the closest', () => {
    expect(failure({ gadget: { table: 'gadget', on: { gadget_id: 'id' } } }))
      .to.equal("resources/widgets.ts: joins.gadget.table: no family reads table 'gadget' (did you mean 'gadgets'?)");
  });

  it('takes exactly one pair of column names', () => {
    const one = "resources/widgets.ts: joins.gadget.on: name exactly one { localColumn: joinedColumn } pair";
    expect(failure({ gadget: { table: 'gadgets', on: {} } })).to.equal(one);
    expect(failure({ gadget: { table: 'gadgets' } })).to.equal(one);
    expect(failure({ gadget: { table: 'gadgets', on: { a: 'id', b: 'id' } } })).to.equal(one);
    expect(failure({ gadget: { table: 'gadgets', on: { gadget_id: 'I d' } } })).to.equal("resources/widgets.ts: joins.gadget.on: 'I d' is not a column name");
  });

  it('refuses unknown keys and names that are not camelCase', () => {
    expect(failure({ gadget: { table: 'gadgets', on: { gadget_id: 'id' }, where: {} } })).to.equal("resources/widgets.ts: joins.gadget.where: unknown key 'where'");
    expect(failure({ Gadget: { table: 'gadgets', on: { gadget_id: 'id' } } })).to.equal('resources/widgets.ts: joins.Gadget: a join name is camelCase');
  });
});
