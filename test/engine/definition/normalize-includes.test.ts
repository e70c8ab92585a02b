import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { normalizeIncludes } from '../../../src/engine/definition/normalize-includes.ts';
import type { Field } from '../../../src/engine/definition/resource.ts';
import type { IncludeDefinition, ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { definitionFailure } from './definition-failure.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'uuid', column: name, join: null, sourceColumn: name, nullable: true, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});
const fields = [field('id'), field('name', { type: 'string' }), field('gadgetId'), field('secretId', { hidden: true })];
const gadgets: ResourceDefinition = {
  path: 'gadgets',
  scope: 'brand', area: 'catalog',
  fields: { id: { type: 'uuid' }, widgetId: { type: 'uuid' }, hiddenId: { type: 'uuid', hidden: true } },
};

const includes = (declared: Record<string, unknown>) => normalizeIncludes({
  declared: declared as Record<string, IncludeDefinition>, fields, definitions: new Map([['gadgets', gadgets]]), checks: definitionChecks('widgets'),
});
const failure = (declared: Record<string, unknown>): string => definitionFailure(() => includes(declared));

describe('normalizeIncludes', () => {
  it('is to-one on the related id, to-many on any other related field', () => {
    const normalized = includes({
      gadget: { resource: 'gadgets', on: { gadgetId: 'id' } },
      gadgets: { resource: 'gadgets', on: { id: 'widgetId' }, description: 'Its gadgets.' },
    });
    expect(normalized).to.deep.equal([
      { name: 'gadget', resource: 'gadgets', localField: 'gadgetId', remoteField: 'id', cardinality: 'one', description: null },
      { name: 'gadgets', resource: 'gadgets', localField: 'id', remoteField: 'widgetId', cardinality: 'many', description: 'Its gadgets.' },
    ]);
    expect(Object.isFrozen(normalized)).to.equal(true);
    expect(Object.isFrozen(normalized[0])).to.equal(true);
  });

  it('names the key and suggests the close name', () => {
    expect(failure({ gadget: { resource: 'gadget', on: { gadgetId: 'id' } } }))
      .to.equal("resources/widgets.ts: includes.gadget.resource: no family 'gadget' (did you mean 'gadgets'?)");
    expect(failure({ gadget: { resource: 'gadgets', on: { gadgetI: 'id' } } }))
      .to.equal("resources/widgets.ts: includes.gadget.on: 'gadgetI' is not a field of the record (did you mean 'gadgetId'?)");
    expect(failure({ gadget: { resource: 'gadgets', on: { gadgetId: 'ix' } } }))
      .to.equal("resources/widgets.ts: includes.gadget.on: 'ix' is not a field of gadgets (did you mean 'id'?)");
  });

  it('refuses what the engine cannot serve', () => {
    expect(failure({ name: { resource: 'gadgets', on: { gadgetId: 'id' } } })).to.equal('resources/widgets.ts: includes.name: an include cannot take the name of a field');
    expect(failure({ Gadget: { resource: 'gadgets', on: { gadgetId: 'id' } } })).to.equal('resources/widgets.ts: includes.Gadget: an include name is camelCase');
    expect(failure({ gadget: { resource: 'gadgets', on: {} } })).to.equal('resources/widgets.ts: includes.gadget.on: name exactly one { localField: relatedField } pair');
    expect(failure({ gadget: { resource: 'gadgets', on: { secretId: 'id' } } })).to.match(/'secretId' is not a field of the record/);
    expect(failure({ gadget: { resource: 'gadgets', on: { gadgetId: 'hiddenId' } } })).to.match(/'hiddenId' is not a field of gadgets/);
    expect(failure({ gadget: { resource: 'gadgets', on: { gadgetId: 'constructor' } } })).to.match(/'constructor' is not a field of gadgets/);
  });
});
