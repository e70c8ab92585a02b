import { readdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { expect } from 'chai';
import { defineResource } from '../../../src/engine/definition/define-resource.ts';
import { RESOURCES_DIR } from '../../../src/engine/definition/registry.ts';

describe('defineResource', () => {
  it('returns the definition it is given, unchanged: it exists for the type check', () => {
    const definition = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, name: { type: 'string', nullable: false } } } as const;
    const defined = defineResource(definition);
    expect(defined).to.equal(definition);
    expect(defined).to.deep.equal({ path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, name: { type: 'string', nullable: false } } });
  });

  it('refuses, at type-check time, what is not a definition', () => {
    // @ts-expect-error: 'everyone' is not a scope
    defineResource({ path: 'widgets', scope: 'everyone', area: 'catalog', fields: {} });
    // @ts-expect-error: 'text' is not a field type
    defineResource({ path: 'widgets', scope: 'brand', area: 'catalog', fields: { name: { type: 'text' } } });
    // @ts-expect-error: 'starts-with' is not a match kind
    defineResource({ path: 'widgets', scope: 'brand', area: 'catalog', fields: { name: { type: 'string' } }, filters: { name: { field: 'name', match: 'starts-with' } } });
    // @ts-expect-error: 'warehouse' is not an area
    defineResource({ path: 'widgets', scope: 'brand', area: 'warehouse', fields: {} });
    // @ts-expect-error: a family names its area
    defineResource({ path: 'widgets', scope: 'brand', fields: {} });
  });

  it('is what every file in resources/ default-exports: plain data, no functions', async () => {
    const files = (await readdir(RESOURCES_DIR)).filter((file) => file.endsWith('.ts'));
    expect(files).to.not.be.empty;
    const hasFunction = (value: unknown): boolean =>
      typeof value === 'function' || (value !== null && typeof value === 'object' && Object.values(value).some(hasFunction));
    for (const file of files) {
      const { default: definition } = (await import(pathToFileURL(join(RESOURCES_DIR, file)).href)) as { default: unknown };
      expect(definition, file).to.be.an('object').that.has.property('path', file.replace(/\.ts$/, ''));
      expect(hasFunction(definition), file).to.equal(false);
    }
  });
});
