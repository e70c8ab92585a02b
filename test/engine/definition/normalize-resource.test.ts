import { expect } from 'chai';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';

const base = (): ResourceDefinition => ({
  path: 'widgets',
  scope: 'brand',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    gadgetId: { type: 'uuid' },
    createdAt: { type: 'timestamp', nullable: false },
  },
});
const gadgets: ResourceDefinition = {
  path: 'gadgets',
  scope: 'brand',
  fields: { id: { type: 'uuid' }, label: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};

/** The message a definition fails with. */
function failure(definition: unknown): string {
  try {
    createRegistry([definition as ResourceDefinition, gadgets]);
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error('the definition was accepted');
}

describe('normalizeResource', () => {
  it('fills defaults: table and columns in snake case, nullable fields, a title', () => {
    const widgets = createRegistry([base(), gadgets]).get('widgets');
    expect(widgets.table).to.equal('widgets');
    expect(widgets.title).to.equal('Widgets');
    expect(widgets.fields.map((f) => [f.name, f.column, f.nullable])).to.deep.equal([
      ['id', 'id', false],
      ['name', 'name', true],
      ['gadgetId', 'gadget_id', true],
      ['createdAt', 'created_at', false],
    ]);
    expect(Object.isFrozen(widgets)).to.equal(true);
    expect(Object.isFrozen(widgets.fields[0])).to.equal(true);
  });

  it('names the family and key, and suggests the close name', () => {
    expect(failure({ ...base(), filds: {} })).to.equal("resources/widgets.ts: filds: unknown key 'filds' (did you mean 'fields'?)");
    expect(failure({ ...base(), fields: { ...base().fields, name: { type: 'strng' } } }))
      .to.equal("resources/widgets.ts: fields.name.type: unknown type 'strng' (did you mean 'string'?)");
    expect(failure({ ...base(), filters: { name: { field: 'nme', match: 'exact' } } }))
      .to.equal("resources/widgets.ts: filters.name: no field 'nme' (did you mean 'name'?)");
    expect(failure({ ...base(), filters: { name: { field: 'name', match: 'exactly' } } }))
      .to.equal("resources/widgets.ts: filters.name.match: unknown match kind 'exactly' (did you mean 'exact'?)");
    expect(failure({ ...base(), includes: { gadget: { resource: 'gadget', on: { gadgetId: 'id' } } } }))
      .to.equal("resources/widgets.ts: includes.gadget.resource: no family 'gadget' (did you mean 'gadgets'?)");
    expect(failure({ ...base(), scope: 'brands' })).to.equal("resources/widgets.ts: scope: unknown scope 'brands' (did you mean 'brand'?)");
  });

  it('refuses what the engine cannot serve', () => {
    const { createdAt: _, ...withoutCreatedAt } = base().fields;
    expect(failure({ ...base(), fields: withoutCreatedAt })).to.match(/fields\.createdAt: every family needs a non-null timestamp/);
    expect(failure({ ...base(), fields: { ...base().fields, brandId: { type: 'uuid' } } })).to.match(/brand_id belongs to the engine/);
    expect(failure({ ...base(), filters: { limit: { field: 'name', match: 'exact' } } })).to.match(/'limit' is a parameter of every list/);
    expect(failure({ ...base(), filters: { q: { fields: ['gadgetId'], match: 'contains-ci' } } })).to.match(/searches string fields only/);
    expect(failure({ ...base(), fields: { ...base().fields, kind: { type: 'enum' } } })).to.match(/an enum lists its values/);
    expect(failure({ ...base(), fields: { ...base().fields, doc: { type: 'json' } }, filters: { doc: { field: 'doc', match: 'exact' } } }))
      .to.match(/a json field cannot be matched exactly/);
    expect(failure({ ...base(), includes: { name: { resource: 'gadgets', on: { gadgetId: 'id' } } } })).to.match(/cannot take the name of a field/);
    expect(failure({ ...base(), fields: { ...base().fields, other: { type: 'string', column: 'name' } } })).to.match(/column 'name' is declared twice/);
    expect(failure({ ...base(), table: 'Widgets; drop table x' })).to.match(/is not a lower-case SQL identifier/);
  });

  it('resolves joins to the joined family and its scope, and derives include cardinality', () => {
    const registry = createRegistry([{
      ...base(),
      joins: { gadget: { table: 'gadgets', on: { gadget_id: 'id' } } },
      fields: { ...base().fields, gadgetLabel: { type: 'string', from: 'gadget.label' } },
      filters: { gadgetLabel: { column: 'gadget.label', type: 'string', match: 'exact' } },
      includes: { gadget: { resource: 'gadgets', on: { gadgetId: 'id' } } },
    }, { ...gadgets, fields: { ...gadgets.fields, widgetId: { type: 'uuid' } }, includes: { widgets: { resource: 'widgets', on: { widgetId: 'id' } } } }]);
    const widgets = registry.get('widgets');
    expect(widgets.joins.gadget).to.deep.include({ table: 'gadgets', localColumn: 'gadget_id', foreignColumn: 'id', scope: 'brand' });
    expect(widgets.fields.find((f) => f.name === 'gadgetLabel')).to.deep.include({ column: null, join: 'gadget', sourceColumn: 'label' });
    expect(widgets.filters[0]!.targets[0]).to.deep.include({ join: 'gadget', column: 'label', type: 'string' });
    expect(widgets.includes[0]!.cardinality).to.equal('one');
    expect(createRegistry([base(), { ...gadgets, includes: { widgets: { resource: 'widgets', on: { id: 'gadgetId' } } } }])
      .get('gadgets').includes[0]!.cardinality).to.equal('many');
  });

  it('refuses two families on one path or one table', () => {
    expect(() => createRegistry([base(), base()])).to.throw(DefinitionError, /two definitions use this path/);
    expect(() => createRegistry([base(), { ...gadgets, table: 'widgets' }])).to.throw(DefinitionError, /already the table of widgets/);
  });
});
