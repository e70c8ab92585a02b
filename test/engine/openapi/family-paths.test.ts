import { expect } from 'chai';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { familyPaths } from '../../../src/engine/openapi/family-paths.ts';

const ID = '22222222-2222-4222-8222-222222222222';
const brands: ResourceDefinition = {
  path: 'brands',
  scope: 'tenant',
  fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};
const cartonSizes: ResourceDefinition = {
  path: 'carton-sizes',
  scope: 'brand',
  description: 'Boxes.',
  fields: { id: { type: 'uuid' }, name: { type: 'string' }, brandRef: { type: 'uuid' }, createdAt: { type: 'timestamp', nullable: false } },
  filters: { name: { field: 'name', match: 'exact' } },
  includes: { brand: { resource: 'brands', on: { brandRef: 'id' }, description: 'Its brand.' } },
};
const registry = createRegistry([brands, cartonSizes]);
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

describe('familyPaths', () => {
  it('gives a family a list and a get by id, tagged with its title', () => {
    const paths = familyPaths(registry.get('carton-sizes'), { id: ID, name: 'Box' });
    expect(Object.keys(paths)).to.deep.equal(['/brands/{brand}/carton-sizes', '/brands/{brand}/carton-sizes/{id}']);
    const list = (paths['/brands/{brand}/carton-sizes'] as any).get;
    const get = (paths['/brands/{brand}/carton-sizes/{id}'] as any).get;
    expect(list).to.include({ operationId: 'listCartonSizes', summary: 'List carton sizes' });
    expect(list.description).to.match(/^Boxes\. Pages are ordered by `createdAt`, then `id`/);
    expect(get).to.include({ operationId: 'getCartonSize', summary: 'Get one carton size' });
    expect(list.tags).to.deep.equal(['Carton Sizes']);
    expect(Object.keys(get.responses)).to.deep.equal(['200', '304', '400', '401', '404', '429', '500', '503']);
  });

  it('lists the shared parameters by reference, then include, fields and the filters', () => {
    const list = (familyPaths(registry.get('carton-sizes'), undefined)['/brands/{brand}/carton-sizes'] as any).get;
    const names = list.parameters.map((p: any) => p.$ref ?? p.name);
    expect(names).to.deep.equal([
      '#/components/parameters/Brand', '#/components/parameters/Cursor', '#/components/parameters/Limit',
      'include', 'fields', 'name', 'createdSince', '#/components/parameters/IfNoneMatch',
    ]);
    const include = list.parameters.find((p: any) => p.name === 'include');
    expect(include.description).to.contain('- `brand`: Its brand.');
    // Not filled in "try it" (optional-parameter.ts): the example is second, after one with no value.
    expect(include).to.not.have.property('example');
    expect(Object.keys(include.examples)).to.deep.equal(['default', 'one']);
    expect(include.examples.one).to.deep.equal({ summary: 'Embed brand', value: 'brand' });
    const fields = list.parameters.find((p: any) => p.name === 'fields');
    expect(fields.description).to.contain('Fields: `id`, `name`, `brandRef`, `createdAt`.');
    expect(fields).to.not.have.property('example');
    expect(fields.examples.some).to.deep.equal({ summary: 'Only id,name', value: 'id,name' });
    expect(fields.schema).to.not.have.property('description');
  });

  it('quotes the example record in a get and as a one-item page, and its id on the path', () => {
    const paths = familyPaths(registry.get('carton-sizes'), { id: ID, name: 'Box' }) as any;
    const listOk = paths['/brands/{brand}/carton-sizes'].get.responses['200'];
    expect(listOk.content['application/json']).to.deep.equal({
      schema: ref('schemas', 'CartonSizeList'),
      example: { items: [{ id: ID, name: 'Box' }], nextCursor: null, totalItems: 1 },
    });
    expect(listOk.headers).to.have.property('Link').that.deep.equals(ref('headers', 'Link'));
    const get = paths['/brands/{brand}/carton-sizes/{id}'].get;
    expect(get.responses['200'].content['application/json']).to.deep.equal({ schema: ref('schemas', 'CartonSize'), example: { id: ID, name: 'Box' } });
    expect(get.parameters[1]).to.include({ name: 'id', in: 'path', example: ID });
    const bare = familyPaths(registry.get('carton-sizes'), undefined) as any;
    expect(bare['/brands/{brand}/carton-sizes/{id}'].get.responses['200'].content['application/json']).to.deep.equal({ schema: ref('schemas', 'CartonSize') });
  });

  it('gives the tenant family one get of the brand in the path', () => {
    const paths = familyPaths(registry.get('brands'), undefined) as any;
    expect(Object.keys(paths)).to.deep.equal(['/brands/{brand}']);
    expect(paths['/brands/{brand}'].get).to.include({ operationId: 'getBrand', summary: 'Get the brand' });
    expect(paths['/brands/{brand}'].get.parameters.map((p: any) => p.$ref ?? p.name))
      .to.deep.equal(['#/components/parameters/Brand', 'fields', '#/components/parameters/IfNoneMatch']);
  });
});
