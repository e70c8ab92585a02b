import { expect } from 'chai';
import { createRegistry, loadRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { buildOpenApi } from '../../../src/engine/openapi/build-openapi.ts';
import { CHANGES_PARAMETER_COMPONENTS, changesPaths, changesSchemas } from '../../../src/engine/openapi/changes-paths.ts';
import { PARAMETERS } from '../../../src/engine/openapi/openapi-components.ts';

const cartonSizes: ResourceDefinition = {
  path: 'carton-sizes',
  scope: 'brand', area: 'catalog',
  fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
  filters: { name: { field: 'name', match: 'exact' } },
};
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

describe('changesPaths and changesSchemas', () => {
  const resource = createRegistry([brands, cartonSizes]).get('carton-sizes');

  it('gives a family its changes operation: syncToken, cursor, limit 1 to 1000, wait 0 to 60 and fields, no filter; 410 besides the usual errors', () => {
    const operation = (changesPaths(resource)['/brands/{brand}/carton-sizes/changes'] as any).get;
    expect(operation.operationId).to.equal('listCartonSizesChanges');
    // The feed's own parameters are the same on every family: components, referred to.
    const names = operation.parameters.map((p: any) => p.$ref ?? p.name);
    expect(names).to.deep.equal([
      '#/components/parameters/Brand', '#/components/parameters/SyncToken', '#/components/parameters/ChangesCursor',
      '#/components/parameters/ChangesLimit', '#/components/parameters/Wait', 'fields', '#/components/parameters/IfNoneMatch',
    ]);
    const components: Record<string, any> = { ...PARAMETERS, ...CHANGES_PARAMETER_COMPONENTS };
    const parameters = operation.parameters.map((p: any) => (p.$ref ? components[p.$ref.split('/').pop()] : p));
    expect(parameters.map((p: any) => p?.name)).to.deep.equal(['brand', 'syncToken', 'cursor', 'limit', 'wait', 'fields', 'If-None-Match']);
    for (const parameter of parameters.slice(1, 6)) expect(parameter, parameter.name).to.include({ in: 'query', required: false });
    expect(parameters[3].schema).to.deep.include({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
    expect(parameters[4].schema).to.deep.include({ type: 'integer', minimum: 0, maximum: 60, default: 0 });
    expect(parameters[1].schema).to.deep.equal({ type: 'string' });
    // The list's cursor is another parameter (its description speaks of the list's filters).
    expect(parameters[2].description).to.not.equal(components.Cursor.description);
    expect(operation.responses['200'].content['application/json'].schema).to.deep.equal(ref('schemas', 'CartonSizeChanges'));
    expect(operation.responses['410']).to.deep.equal(ref('responses', 'Gone'));
  });

  it('an item is an upsert with the record or the shared delete; the page is exactly items, nextCursor, syncToken', () => {
    const schemas = changesSchemas(resource) as any;
    // The bare record, as an include embeds it: the feed's schemas refer to no schema that refers back.
    expect(schemas.CartonSizeChange.oneOf[0].properties.record).to.deep.equal(ref('schemas', 'CartonSizeEmbedded'));
    expect(schemas.CartonSizeChange.oneOf[1]).to.deep.equal(ref('schemas', 'ChangeDelete'));
    expect(schemas.CartonSizeChanges.required).to.deep.equal(['items', 'nextCursor', 'syncToken']);
  });

  it('the document has one for every family but Brand, and the 410 response', async () => {
    const registry = await loadRegistry();
    const document = buildOpenApi(registry, { basePath: '/api/public/v1' }) as any;
    const changes = Object.keys(document.paths).filter((path) => path.endsWith('/changes'));
    expect(changes).to.have.length(registry.resources.filter((r) => r.scope !== 'tenant').length);
    expect(document.components.responses.Gone.content['application/json'].examples).to.have.keys('sync_token_expired');
    for (const path of changes) {
      const names = document.paths[path].get.parameters.map((p: any) => p.$ref ?? p.name);
      // No filter, no sort, no include (CONTRACT.md §6, §8).
      expect(names.slice(0, 5), path).to.deep.equal(['Brand', 'SyncToken', 'ChangesCursor', 'ChangesLimit', 'Wait'].map((name) => `#/components/parameters/${name}`));
      expect(names, path).to.have.length(7);
      expect(document.paths[path].get.responses['410'], path).to.deep.equal(ref('responses', 'Gone'));
    }
    for (const [name, parameter] of Object.entries(CHANGES_PARAMETER_COMPONENTS)) expect(document.components.parameters[name], name).to.deep.equal(parameter);
  });
});
