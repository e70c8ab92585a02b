import { expect } from 'chai';
import { RANGE_TIMESTAMP_PARAMETER } from '../../../src/engine/compile/date-time-parameters.ts';
import { FIELD_TYPES } from '../../../src/engine/compile/field-types.ts';
import { createRegistry, type Registry } from '../../../src/engine/definition/registry.ts';
import type { Resource } from '../../../src/engine/definition/resource.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { familyPaths } from '../../../src/engine/openapi/family-paths.ts';
import { withoutDescription } from '../../../src/engine/openapi/optional-parameter.ts';
import { builtDocument, operationsOf, resolveParameter, type Doc } from './built-document.ts';

const ID = '22222222-2222-4222-8222-222222222222';
const brands: ResourceDefinition = {
  path: 'brands',
  scope: 'tenant', area: 'catalog',
  fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};
const cartonSizes: ResourceDefinition = {
  path: 'carton-sizes',
  scope: 'brand', area: 'catalog',
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

  it('lists the shared parameters by reference, then sort, include, fields, the filters and the ranges', () => {
    const list = (familyPaths(registry.get('carton-sizes'), undefined)['/brands/{brand}/carton-sizes'] as any).get;
    const names = list.parameters.map((p: any) => p.$ref ?? p.name);
    expect(names).to.deep.equal([
      '#/components/parameters/Brand', '#/components/parameters/Cursor', '#/components/parameters/Limit',
      'sort', 'include', 'fields', 'name', 'createdSince', 'createdAt[gte]', 'createdAt[gt]', 'createdAt[lte]', 'createdAt[lt]',
      '#/components/parameters/IfNoneMatch',
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

describe('familyPaths: sorts, any of and ranges (CONTRACT.md §8)', () => {
  const orders: ResourceDefinition = {
    path: 'orders',
    scope: 'brand', area: 'orders',
    fields: {
      id: { type: 'uuid' },
      code: { type: 'string' },
      status: { type: 'enum', values: ['draft', 'approved'] },
      supplierId: { type: 'uuid', nullable: true },
      totalAmount: { type: 'decimal', nullable: true },
      lineCount: { type: 'integer' },
      orderedOn: { type: 'date', nullable: true },
      createdAt: { type: 'timestamp', nullable: false },
      updatedAt: { type: 'timestamp', nullable: false },
    },
    filters: {
      status: { field: 'status', match: 'exact' },
      supplierId: { field: 'supplierId', match: 'exact' },
      search: { fields: ['code'], match: 'contains-ci' },
    },
    sorts: ['code', 'totalAmount'],
    ranges: ['totalAmount', 'lineCount', 'orderedOn'],
  };
  const list = (familyPaths(createRegistry([brands, orders]).get('orders'), undefined)['/brands/{brand}/orders'] as any).get;
  const parameter = (name: string) => list.parameters.find((p: any) => p.name === name);

  it('takes `sort`: each declared field ascending and descending, after createdAt and updatedAt', () => {
    const sort = parameter('sort');
    expect(sort).to.include({ in: 'query', required: false });
    expect(sort.schema).to.deep.equal({ type: 'string', enum: ['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'code', '-code', 'totalAmount', '-totalAmount'] });
    expect(sort.description).to.contain('leading `-`');
  });

  it('writes an exact filter as a repeated parameter of at most 100 values, and the other filters as one value', () => {
    for (const name of ['status', 'supplierId']) {
      expect(parameter(name), name).to.include({ style: 'form', explode: true });
      expect(parameter(name).schema, name).to.include({ type: 'array', minItems: 1, maxItems: 100 });
    }
    expect(parameter('status').schema.items).to.deep.equal({ type: 'string', enum: ['draft', 'approved'] });
    expect(parameter('supplierId').schema.items).to.have.property('pattern');
    for (const name of ['search', 'createdSince', 'updatedSince', 'totalAmount[gte]']) {
      expect(parameter(name), name).to.not.have.any.keys('style', 'explode');
      expect(parameter(name).schema.type, name).to.equal('string');
    }
  });

  it('takes the four bounds of every range field, each with the field\'s type', () => {
    const bounds = list.parameters.map((p: any) => p.name).filter((name: string) => /\[(gte|gt|lte|lt)\]$/.test(name));
    expect(bounds).to.deep.equal(['createdAt', 'updatedAt', 'totalAmount', 'lineCount', 'orderedOn']
      .flatMap((field) => ['gte', 'gt', 'lte', 'lt'].map((bound) => `${field}[${bound}]`)));
    expect(parameter('lineCount[lt]').schema).to.include({ type: 'integer' });
    expect(parameter('lineCount[lt]').description).to.contain('`lineCount` is less than this integer');
    const matches = (name: string, value: string) => new RegExp(parameter(name).schema.pattern as string).test(value);
    expect(matches('totalAmount[gte]', '-12.50')).to.equal(true);
    expect(matches('totalAmount[gte]', '1e3')).to.equal(false);
    expect(matches('orderedOn[gt]', '2026-01-31')).to.equal(true);
    expect(matches('orderedOn[gt]', '2026-01-31T00:00:00Z')).to.equal(false);
    expect(parameter('createdAt[lte]').schema).to.include({ type: 'string', format: 'date-time' });
    expect(matches('createdAt[lte]', '2026-01-31T00:00:00Z')).to.equal(true);
    expect(matches('createdAt[lte]', '2026-01-31')).to.equal(false);
  });
});

describe('familyPaths, in the document of the whole registry', () => {
  let registry: Registry;
  let doc: Doc;
  before(async () => {
    ({ registry, doc } = await builtDocument());
  });
  const listParameters = (path: string): Doc[] => (doc.paths[`/brands/{brand}/${path}`].get.parameters as Doc[]).map((p) => resolveParameter(doc, p));
  const hasUpdatedAt = (resource: Resource) => resource.recordFields.some((field) => field.name === 'updatedAt' && field.type === 'timestamp');
  const lists = () => registry.resources.filter((resource) => resource.scope !== 'tenant');

  it('every list\'s `sort` enumerates exactly the family\'s sorts, each both ways; no other operation takes `sort`', () => {
    for (const resource of lists()) {
      const sort = listParameters(resource.path).find((p) => p.name === 'sort');
      expect(sort, resource.path).to.include({ in: 'query', required: false });
      expect(sort!.schema.type, resource.path).to.equal('string');
      expect(sort!.schema.enum, resource.path).to.deep.equal(resource.sorts.flatMap((field) => [field.name, `-${field.name}`]));
      // Every list takes createdAt, and updatedAt where its records have it.
      expect(sort!.schema.enum.slice(0, 2), resource.path).to.deep.equal(['createdAt', '-createdAt']);
      expect(sort!.schema.enum.includes('-updatedAt'), resource.path).to.equal(hasUpdatedAt(resource));
    }
    const listPaths = new Set(lists().map((resource) => `/brands/{brand}/${resource.path}`));
    for (const { path, operation } of operationsOf(doc)) {
      if (listPaths.has(path)) continue;
      const names = (operation.parameters as Doc[]).map((p) => resolveParameter(doc, p).name);
      expect(names, path).to.not.include('sort');
    }
  });

  it('every range field has its four bracket parameters, with the field\'s type', () => {
    const boundPattern: Record<string, [string, string]> = {
      timestamp: ['2026-01-01T00:00:00Z', '2026-01-01'],
      date: ['2026-01-01', '2026-01-01T00:00:00Z'],
      decimal: ['-12.50', '1e3'],
    };
    let checked = 0;
    for (const resource of lists()) {
      const parameters = listParameters(resource.path);
      const ranges = resource.ranges.map((field) => field.name);
      expect(ranges.slice(0, hasUpdatedAt(resource) ? 2 : 1), resource.path).to.deep.equal(hasUpdatedAt(resource) ? ['createdAt', 'updatedAt'] : ['createdAt']);
      expect(parameters.map((p) => p.name).filter((name) => /\[(gte|gt|lte|lt)\]$/.test(name)), resource.path)
        .to.deep.equal(ranges.flatMap((field) => ['gte', 'gt', 'lte', 'lt'].map((bound) => `${field}[${bound}]`)));
      for (const field of resource.ranges) {
        for (const bound of ['gte', 'gt', 'lte', 'lt']) {
          const name = `${field.name}[${bound}]`;
          const parameter = parameters.find((p) => p.name === name)!;
          expect(parameter, `${resource.path} ${name}`).to.include({ in: 'query', required: false });
          expect(parameter, `${resource.path} ${name}`).to.not.have.any.keys('style', 'explode');
          expect(parameter.description, `${resource.path} ${name}`).to.contain(`\`${field.name}\``);
          // A timestamp bound at most to the microsecond (compared as given, never rounded); other types as their field's parameter.
          const expected = field.type === 'timestamp' ? RANGE_TIMESTAMP_PARAMETER : FIELD_TYPES[field.type].parameterSchema!;
          expect(parameter.schema, `${resource.path} ${name}`).to.deep.equal(withoutDescription(expected));
          if (field.type === 'integer') {
            expect(parameter.schema.type, `${resource.path} ${name}`).to.equal('integer');
          } else {
            const [good, bad] = boundPattern[field.type]!;
            expect(parameter.schema.type, `${resource.path} ${name}`).to.equal('string');
            expect(new RegExp(parameter.schema.pattern as string).test(good), `${resource.path} ${name} takes ${good}`).to.equal(true);
            expect(new RegExp(parameter.schema.pattern as string).test(bad), `${resource.path} ${name} refuses ${bad}`).to.equal(false);
          }
          checked += 1;
        }
      }
    }
    expect(checked).to.be.at.least(lists().length * 4);
  });

  it('an exact filter is a repeated parameter (style form, explode, an array of at most 100); no other filter is', () => {
    let exact = 0;
    for (const resource of lists()) {
      const parameters = listParameters(resource.path);
      for (const filter of resource.filters) {
        const parameter = parameters.find((p) => p.name === filter.name)!;
        const where = `${resource.path} ${filter.name}`;
        expect(parameter, where).to.include({ in: 'query', required: false });
        if (filter.match !== 'exact') {
          expect(parameter, where).to.not.have.any.keys('style', 'explode');
          expect(parameter.schema.type, where).to.not.equal('array');
          continue;
        }
        exact += 1;
        expect(parameter, where).to.include({ style: 'form', explode: true });
        expect(parameter.schema, where).to.include({ type: 'array', minItems: 1, maxItems: 100 });
        const [target] = filter.targets;
        expect(parameter.schema.items, where).to.deep.equal(target!.type === 'enum'
          ? { type: 'string', enum: [...target!.values!] }
          : FIELD_TYPES[target!.type].parameterSchema);
      }
    }
    expect(exact, 'the registry has exact filters').to.be.greaterThan(lists().length);
  });
});
