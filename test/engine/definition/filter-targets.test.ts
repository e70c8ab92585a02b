import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { filterTargets } from '../../../src/engine/definition/filter-targets.ts';
import type { Field, Join } from '../../../src/engine/definition/resource.ts';
import type { FilterDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'string', column: name, join: null, sourceColumn: name, nullable: true, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});
const fields = [
  field('name'),
  field('kind', { type: 'enum', values: ['a', 'b'] }),
  field('gadgetLabel', { column: null, join: 'gadget', sourceColumn: 'label' }),
];
const joins: Record<string, Join> = {
  gadget: { name: 'gadget', table: 'gadgets', localColumn: 'gadget_id', foreignColumn: 'id', scope: 'brand' },
};

const targets = (filter: Record<string, unknown>) =>
  filterTargets({ key: 'filters.f', filter: { match: 'exact', ...filter } as FilterDefinition, fields, joins, checks: definitionChecks('widgets') });
const failure = (filter: Record<string, unknown>): string => definitionFailure(() => targets(filter));

describe('filterTargets', () => {
  it('targets fields with their column, join, type and values', () => {
    expect(targets({ field: 'kind' })).to.deep.equal([{ label: 'kind', join: null, column: 'kind', type: 'enum', values: ['a', 'b'] }]);
    expect(targets({ fields: ['name', 'gadgetLabel'] }).map((t) => [t.label, t.join, t.column])).to.deep.equal([
      ['name', null, 'name'],
      ['gadgetLabel', 'gadget', 'label'],
    ]);
    expect(Object.isFrozen(targets({ field: 'name' })[0])).to.equal(true);
  });

  it('targets a column of a join with the type it declares', () => {
    expect(targets({ column: 'gadget.label', type: 'string' })).to.deep.equal([{ label: 'gadget.label', join: 'gadget', column: 'label', type: 'string', values: null }]);
    expect(targets({ column: 'gadget.kind', type: 'enum', values: ['x'] })[0]!.values).to.deep.equal(['x']);
  });

  it('names a field or join that does not exist, suggesting the closest', () => {
    expect(failure({ field: 'nme' })).to.equal("resources/widgets.ts: filters.f: no field 'nme' (did you mean 'name'?)");
    expect(failure({ column: 'gadgt.label', type: 'string' })).to.equal("resources/widgets.ts: filters.f.column: write '<join>.<column>' with a declared join (did you mean 'gadget'?)");
    expect(failure({ column: 'gadget', type: 'string' })).to.equal("resources/widgets.ts: filters.f.column: write '<join>.<column>' with a declared join (did you mean 'gadget'?)");
    expect(failure({ column: 'gadget.type', type: 'strin' })).to.equal("resources/widgets.ts: filters.f.type: unknown type 'strin' (did you mean 'string'?)");
  });

  it('takes type and values only on a joined column, where the type is required', () => {
    expect(failure({ field: 'name', type: 'string' })).to.equal("resources/widgets.ts: filters.f: 'type' and 'values' come from the field; only a 'column' filter declares them");
    expect(failure({ column: 'gadget.label' })).to.equal('resources/widgets.ts: filters.f.type: a filter on a joined column names its type');
    expect(failure({ column: 'gadget.Label', type: 'string' })).to.equal("resources/widgets.ts: filters.f.column: 'Label' is not a column name");
    expect(failure({ column: 'gadget.kind', type: 'enum' })).to.equal('resources/widgets.ts: filters.f.values: an enum lists its values');
    expect(failure({ fields: [] })).to.equal('resources/widgets.ts: filters.f.fields: name at least one field');
  });
});
