import { expect } from 'chai';
import { normalizeResource } from '../../../src/engine/definition/normalize-resource.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const base = (): ResourceDefinition => ({
  path: 'widgets',
  scope: 'brand', area: 'catalog',
  fields: {
    id: { type: 'uuid' },
    name: { type: 'string' },
    gadgetId: { type: 'uuid', hidden: true },
    createdAt: { type: 'timestamp', nullable: false },
  },
});
const gadgets: ResourceDefinition = {
  path: 'gadgets',
  scope: 'brand', area: 'catalog',
  fields: { id: { type: 'uuid' }, label: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};

const normalize = (definition: unknown) =>
  normalizeResource(definition as ResourceDefinition, { definitions: new Map([['widgets', definition as ResourceDefinition], ['gadgets', gadgets]]) });
const failure = (definition: unknown): string => definitionFailure(() => normalize(definition));

describe('normalizeResource', () => {
  it('fills defaults: table in snake case, a title, no description; keeps hidden fields out of the record; freezes', () => {
    const widgets = normalize(base());
    expect(widgets).to.deep.include({ path: 'widgets', table: 'widgets', scope: 'brand', title: 'Widgets', description: null });
    expect(widgets.fields.map((field) => field.name)).to.deep.equal(['id', 'name', 'gadgetId', 'createdAt']);
    expect(widgets.recordFields.map((field) => field.name)).to.deep.equal(['id', 'name', 'createdAt']);
    expect(normalize({ ...base(), path: 'units-of-measure', title: 'Units', description: 'Kinds.' })).to.deep.include({
      table: 'units_of_measure', title: 'Units', description: 'Kinds.',
    });
    expect(Object.isFrozen(widgets)).to.equal(true);
    expect(Object.isFrozen(widgets.recordFields)).to.equal(true);
  });

  it('joins, fields, filters and includes each go through their step', () => {
    const widgets = normalize({
      ...base(),
      joins: { gadget: { table: 'gadgets', on: { gadget_id: 'id' } } },
      fields: { ...base().fields, gadgetLabel: { type: 'string', from: 'gadget.label' } },
      filters: { gadgetLabel: { column: 'gadget.label', type: 'string', match: 'exact' } },
      includes: { gadget: { resource: 'gadgets', on: { id: 'id' } } },
    });
    expect(Object.keys(widgets.joins)).to.deep.equal(['gadget']);
    expect(widgets.fields.find((f) => f.name === 'gadgetLabel')).to.deep.include({ join: 'gadget' });
    expect(widgets.filters.map((f) => f.name)).to.deep.equal(['gadgetLabel', 'createdSince', 'createdAt[gte]', 'createdAt[gt]', 'createdAt[lte]', 'createdAt[lt]']);
    expect(widgets.includes.map((i) => i.name)).to.deep.equal(['gadget']);
  });

  it('names the family and key, and suggests the close name', () => {
    expect(failure({ ...base(), filds: {} })).to.equal("resources/widgets.ts: filds: unknown key 'filds' (did you mean 'fields'?)");
    expect(failure({ ...base(), scope: 'brands' })).to.equal("resources/widgets.ts: scope: unknown scope 'brands' (did you mean 'brand'?)");
  });

  it('refuses what the engine cannot serve', () => {
    const { createdAt: _, ...withoutCreatedAt } = base().fields;
    expect(failure({ ...base(), fields: withoutCreatedAt })).to.match(/fields\.createdAt: every family needs a non-null timestamp/);
    expect(failure({ ...base(), fields: { ...base().fields, id: { type: 'string' } } }))
      .to.equal("resources/widgets.ts: fields.id: every family needs a non-null uuid column field 'id' (keys and list order)");
    expect(failure({ ...base(), table: 'Widgets; drop table x' })).to.match(/is not a lower-case SQL identifier/);
    expect(failure({ ...base(), path: 'Widgets' })).to.equal("resources/Widgets.ts: path: 'Widgets' is not a kebab-case path");
    expect(failure({ ...base(), joins: { gadget: { table: 'gadgets', on: { gadget_ix: 'id' } } } }))
      .to.equal("resources/widgets.ts: joins.gadget.on: 'gadget_ix' is not a column of widgets");
  });

  it('checks in order: own keys, joins, fields, join columns, key fields, filters, includes', () => {
    const broken = { ...base(), fields: { ...base().fields, name: { type: 'strng' } }, joins: { gadget: { table: 'x', on: { a: 'id' } } } };
    expect(failure(broken)).to.match(/joins\.gadget\.table/);
    expect(failure({ ...broken, joins: {} })).to.match(/fields\.name\.type/);
    const { id: _, ...withoutId } = base().fields;
    expect(failure({ ...base(), fields: withoutId, joins: { gadget: { table: 'gadgets', on: { a: 'id' } } } })).to.match(/joins\.gadget\.on: 'a'/);
    expect(failure({ ...base(), fields: withoutId, filters: { x: { field: 'nope', match: 'exact' } } })).to.match(/fields\.id/);
    expect(failure({ ...base(), filters: { x: { field: 'name', match: 'nope' } }, includes: { y: { resource: 'nope', on: {} } } })).to.match(/filters\.x\.match/);
  });
});
