import { expect } from 'chai';
import { createRegistry, loadRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { buildOpenApi } from '../../../src/engine/openapi/build-openapi.ts';
import { changesPaths, changesSchemas } from '../../../src/engine/openapi/changes-paths.ts';

const cartonSizes: ResourceDefinition = {
  path: 'carton-sizes',
  scope: 'brand',
  fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
  filters: { name: { field: 'name', match: 'exact' } },
};
const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

describe('changesPaths and changesSchemas', () => {
  const resource = createRegistry([brands, cartonSizes]).get('carton-sizes');

  it('gives a family its changes operation: syncToken, cursor, limit 1 to 1000, wait 0 to 60 and fields, no filter; 410 besides the usual errors', () => {
    const operation = (changesPaths(resource)['/brands/{brand}/carton-sizes/changes'] as any).get;
    expect(operation.operationId).to.equal('listCartonSizesChanges');
    const names = operation.parameters.map((p: any) => p.name ?? p.$ref);
    expect(names).to.deep.equal(['#/components/parameters/Brand', 'syncToken', 'cursor', 'limit', 'wait', 'fields', '#/components/parameters/IfNoneMatch']);
    expect(operation.parameters[3].schema).to.deep.include({ minimum: 1, maximum: 1000, default: 100 });
    expect(operation.parameters[4].schema).to.deep.include({ type: 'integer', minimum: 0, maximum: 60, default: 0 });
    expect(operation.responses['200'].content['application/json'].schema).to.deep.equal(ref('schemas', 'CartonSizeChanges'));
    expect(operation.responses['410']).to.deep.equal(ref('responses', 'Gone'));
  });

  it('an item is an upsert with the record or the shared delete; the page is exactly items, nextCursor, syncToken', () => {
    const schemas = changesSchemas(resource) as any;
    expect(schemas.CartonSizeChange.oneOf[0].properties.record).to.deep.equal(ref('schemas', 'CartonSize'));
    expect(schemas.CartonSizeChange.oneOf[1]).to.deep.equal(ref('schemas', 'ChangeDelete'));
    expect(schemas.CartonSizeChanges.required).to.deep.equal(['items', 'nextCursor', 'syncToken']);
  });

  it('the document has one for every family but Brand, and the 410 response', async () => {
    const registry = await loadRegistry();
    const document = buildOpenApi(registry, { basePath: '/api/public/v1' }) as any;
    const changes = Object.keys(document.paths).filter((path) => path.endsWith('/changes'));
    expect(changes).to.have.length(registry.resources.filter((r) => r.scope !== 'tenant').length);
    expect(document.components.responses.Gone.content['application/json'].examples).to.have.keys('sync_token_expired');
  });
});
