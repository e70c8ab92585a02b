import { expect } from 'chai';
import { compileRegistry, type CompiledResource } from '../../../src/engine/compile/compile-registry.ts';
import { loadRegistry, type Registry } from '../../../src/engine/definition/registry.ts';

describe('compileRegistry', () => {
  let registry: Registry;
  let families: ReadonlyMap<string, CompiledResource>;
  before(async () => {
    registry = await loadRegistry();
    families = compileRegistry(registry);
  });

  it('compiles every family of the registry once, by path, frozen', () => {
    expect([...families.keys()]).to.deep.equal(registry.resources.map((resource) => resource.path));
    for (const [path, family] of families) {
      expect(family.resource, path).to.equal(registry.get(path));
      expect(Object.isFrozen(family), path).to.equal(true);
      expect(family.fieldNames, path).to.deep.equal(family.resource.recordFields.map((field) => field.name));
      expect([...family.includesByName.keys()], path).to.deep.equal(family.resource.includes.map((include) => include.name));
      expect(family.queries, path).to.include.keys('page', 'count', 'one', 'matching');
    }
  });

  it('validates a list query against the family\'s own parameters', () => {
    const products = families.get('products')!;
    // An exact filter's values come as a list (any of); the request parser makes one of a single value.
    expect(products.validateList({ limit: 25, code: ['P-1'], search: 'parka' })).to.equal(true);
    expect(products.validateList({ code: 'P-1' }), 'an exact filter not as a list').to.equal(false);
    expect(products.validateList({ limit: 0 })).to.equal(false);
    expect(products.validateList({ lengthCm: '1.00' }), "another family's filter").to.equal(false);
    expect(families.get('carton-sizes')!.validateList({ name: ['Small'] })).to.equal(true);
  });

  it('takes no parameter on a single-record route but those the parser reads apart', () => {
    const family = families.get('carton-sizes')!;
    expect(family.validateGet({})).to.equal(true);
    expect(family.validateGet({ limit: 5 })).to.equal(false);
    expect(family.getSchema).to.deep.equal({ type: 'object', additionalProperties: false, properties: {} });
  });
});
