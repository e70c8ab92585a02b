import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';

describe('definitionChecks', () => {
  const { fail, oneOf, onlyKeys } = definitionChecks('widgets');

  it('fails with a DefinitionError naming the family and the key', () => {
    expect(() => fail('fields.name', 'is wrong')).to.throw(DefinitionError).with.property('message', 'resources/widgets.ts: fields.name: is wrong');
  });

  it('oneOf accepts a known name and suggests the closest for an unknown one', () => {
    expect(() => oneOf({ key: 'scope', value: 'brand', allowed: ['brand', 'shared'], what: 'scope' })).to.not.throw();
    expect(() => oneOf({ key: 'scope', value: 'brands', allowed: new Set(['brand', 'shared']), what: 'scope' }))
      .to.throw(DefinitionError).with.property('message', "resources/widgets.ts: scope: unknown scope 'brands' (did you mean 'brand'?)");
    expect(() => oneOf({ key: 'scope', value: 'zzzzzzzz', allowed: ['brand'], what: 'scope' }))
      .to.throw(DefinitionError).with.property('message', "resources/widgets.ts: scope: unknown scope 'zzzzzzzz'");
  });

  it('onlyKeys names the first unknown key under its parent, or alone at the top', () => {
    expect(() => onlyKeys({ key: 'joins.gadget', object: { table: 'x', on: {} }, allowed: ['table', 'on'] })).to.not.throw();
    expect(() => onlyKeys({ key: 'joins.gadget', object: { table: 'x', tabel: 'y', onn: {} }, allowed: ['table', 'on'] }))
      .to.throw(DefinitionError).with.property('message', "resources/widgets.ts: joins.gadget.tabel: unknown key 'tabel' (did you mean 'table'?)");
    expect(() => onlyKeys({ key: '', object: { filds: {} }, allowed: ['fields'] }))
      .to.throw(DefinitionError).with.property('message', "resources/widgets.ts: filds: unknown key 'filds' (did you mean 'fields'?)");
  });
});
