import { expect } from 'chai';
import { definitionChecks } from '../../../src/engine/definition/definition-checks.ts';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';
import { normalizeValues } from '../../../src/engine/definition/normalize-values.ts';

describe('normalizeValues', () => {
  const checks = definitionChecks('widgets');
  const values = (type: string, list: readonly string[] | undefined) => () => normalizeValues({ key: 'fields.kind', type, values: list, checks });

  it('keeps an enum\'s values, frozen, and gives null for any other type', () => {
    const kept = values('enum', ['a', 'b'])();
    expect(kept).to.deep.equal(['a', 'b']);
    expect(Object.isFrozen(kept)).to.equal(true);
    expect(values('string', undefined)()).to.equal(null);
  });

  it('needs values on an enum and refuses them elsewhere', () => {
    expect(values('enum', undefined)).to.throw(DefinitionError).with.property('message', 'resources/widgets.ts: fields.kind.values: an enum lists its values');
    expect(values('enum', [])).to.throw(DefinitionError, /an enum lists its values/);
    expect(values('string', ['a'])).to.throw(DefinitionError).with.property('message', "resources/widgets.ts: fields.kind.values: only an 'enum' has values");
  });
});
