import { expect } from 'chai';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';

describe('DefinitionError', () => {
  it('names the file and the key in its message, for whoever fixes the definition', () => {
    const error = new DefinitionError({ family: 'carton-sizes', key: 'filters.size', message: "unknown field 'size'" });
    expect(error).to.be.instanceOf(Error);
    expect(error.name).to.equal('DefinitionError');
    expect(error.message).to.equal("resources/carton-sizes.ts: filters.size: unknown field 'size'");
  });

  it('is what a bad definition stops the registry with', () => {
    const widgets = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' } } } as const;
    expect(() => createRegistry([widgets, widgets])).to.throw(DefinitionError, /^resources\/widgets\.ts: path: /);
  });
});
