import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createRegistry, type Registry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { countsPaths, countsSchemas } from '../../../src/engine/openapi/counts-paths.ts';
import { recordTypeName } from '../../../src/engine/openapi/record-type-name.ts';
import { loadOpenApiExamples } from '../../../src/server/http/api-document.ts';
import { builtDocument, familyPathsOf, resolveParameter, type Doc } from './built-document.ts';

const brands: ResourceDefinition = { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } };
const orders: ResourceDefinition = {
  path: 'orders',
  scope: 'brand', area: 'orders',
  fields: {
    id: { type: 'uuid' },
    status: { type: 'enum', values: ['draft', 'approved'] },
    supplierId: { type: 'uuid', nullable: true },
    code: { type: 'string' },
    createdAt: { type: 'timestamp', nullable: false },
  },
  filters: { status: { field: 'status', match: 'exact' }, search: { fields: ['code'], match: 'contains-ci' } },
  countable: ['status', 'supplierId'],
};
const notes: ResourceDefinition = {
  path: 'notes',
  scope: 'brand', area: 'documents',
  fields: { id: { type: 'uuid' }, body: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
};
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

describe('countsPaths and countsSchemas', () => {
  const small = createRegistry([brands, orders, notes]);

  it('gives a family with countable fields its counts: `by` required, one of them, then the list\'s filters, ranges included', () => {
    const operation = (countsPaths(small.get('orders'))['/brands/{brand}/orders/counts'] as Doc).get;
    expect(operation).to.include({ operationId: 'countOrders', summary: 'Count orders by value' });
    expect(operation.tags).to.deep.equal(['Orders']);
    const names = operation.parameters.map((p: Doc) => p.$ref ?? p.name);
    expect(names).to.deep.equal([
      '#/components/parameters/Brand', 'by', 'status', 'search', 'createdSince',
      'createdAt[gte]', 'createdAt[gt]', 'createdAt[lte]', 'createdAt[lt]', '#/components/parameters/IfNoneMatch',
    ]);
    const by = operation.parameters[1];
    expect(by).to.include({ in: 'query', required: true, example: 'status' });
    expect(by.schema).to.deep.equal({ type: 'string', enum: ['status', 'supplierId'] });
    expect(by.description).to.be.a('string').and.not.equal('');
    // Any of: the exact filter is a repeated parameter.
    expect(operation.parameters[2]).to.deep.include({ style: 'form', explode: true });
    expect(operation.parameters[2].schema).to.deep.include({ type: 'array', maxItems: 100, items: { type: 'string', enum: ['draft', 'approved'] } });
    expect(operation.responses['200'].content['application/json'].schema).to.deep.equal(ref('schemas', 'OrderCounts'));
    expect(Object.keys(operation.responses)).to.deep.equal(['200', '304', '400', '401', '404', '429', '500', '503']);
  });

  it('its body is exactly by, counts, otherItems and totalItems, each value as the record writes it', () => {
    const schemas = countsSchemas(small.get('orders')) as Doc;
    expect(Object.keys(schemas)).to.deep.equal(['OrderCounts']);
    expect(schemas.OrderCounts.title).to.equal('Orders counts');
    const validate = new Ajv2020({ strict: false }).compile(schemas.OrderCounts);
    const body = { by: 'status', counts: [{ value: 'approved', count: 120 }, { value: null, count: 3 }], otherItems: 0, totalItems: 123 };
    expect(validate(body), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...body, counts: [{ value: 'f47ac10b-58cc-4372-a567-0e02b2c3d479', count: 1 }] }), 'a supplierId').to.equal(true);
    expect(validate({ ...body, by: 'code' }), 'a field not countable').to.equal(false);
    expect(validate({ ...body, counts: [{ value: 'cancelled', count: 1 }] }), 'neither a status nor an id').to.equal(false);
    expect(validate({ ...body, counts: [{ value: 'draft', count: 0 }] }), 'a value no record has is left out').to.equal(false);
    expect(validate({ ...body, extra: 1 }), 'exactly its four keys').to.equal(false);
    const { totalItems: _totalItems, ...partial } = body;
    expect(validate(partial)).to.equal(false);
  });

  it('gives a family with nothing countable neither route nor schema', () => {
    expect(countsPaths(small.get('notes'))).to.deep.equal({});
    expect(countsSchemas(small.get('notes'))).to.deep.equal({});
    expect(countsPaths(small.get('brands'))).to.deep.equal({});
  });

  describe('in the document of the whole registry', () => {
    let registry: Registry;
    let doc: Doc;
    before(async () => {
      ({ registry, doc } = await builtDocument());
    });

    it('every family with countable fields has its counts route, `by` enumerating them; the others have none', () => {
      const countable = registry.resources.filter((resource) => resource.countable.length > 0);
      expect(countable, 'some families count').to.not.be.empty;
      expect(registry.resources.length - countable.length, 'some do not').to.be.greaterThan(0);
      for (const resource of registry.resources) {
        const path = `/brands/{brand}/${resource.path}/counts`;
        const schemaName = `${recordTypeName(resource.path)}Counts`;
        if (resource.countable.length === 0) {
          expect(doc.paths, resource.path).to.not.have.property(path);
          expect(doc.components.schemas, resource.path).to.not.have.property(schemaName);
          continue;
        }
        expect(familyPathsOf(resource).counts).to.equal(path);
        const operation = doc.paths[path]?.get as Doc;
        expect(operation, path).to.be.an('object');
        const parameters = (operation.parameters as Doc[]).map((parameter) => resolveParameter(doc, parameter));
        const by = parameters.find((parameter) => parameter.name === 'by')!;
        expect(by, path).to.include({ in: 'query', required: true });
        expect(by.schema.enum, path).to.deep.equal(resource.countable.map((field) => field.name));
        // The list's filters, any of and ranges included, and none of cursor, limit, sort, include or fields (CONTRACT.md §8).
        expect(parameters.map((parameter) => parameter.name), path)
          .to.deep.equal(['brand', 'by', ...resource.filters.map((filter) => filter.name), 'If-None-Match']);
        const list = (doc.paths[`/brands/{brand}/${resource.path}`].get.parameters as Doc[]).map((parameter) => resolveParameter(doc, parameter));
        for (const filter of resource.filters) {
          expect(parameters.find((parameter) => parameter.name === filter.name), `${path} ${filter.name} as on the list`)
            .to.deep.equal(list.find((parameter) => parameter.name === filter.name));
        }
        expect(operation.responses['200'].content['application/json'].schema, path).to.deep.equal(ref('schemas', schemaName));
        // Key, brand, rate limit, conditional requests and errors as on the list.
        expect(Object.keys(operation.responses), path).to.deep.equal(Object.keys(doc.paths[`/brands/{brand}/${resource.path}`].get.responses));
        const body = doc.components.schemas[schemaName];
        expect(body.required, schemaName).to.deep.equal(['by', 'counts', 'otherItems', 'totalItems']);
        expect(body.properties.by.enum, schemaName).to.deep.equal(by.schema.enum);
        const curl = String(operation['x-codeSamples'][0].source);
        expect(curl, path).to.contain(`/${resource.path}/counts?by=${resource.countable[0]!.name}"`);
      }
    });

    it('a counted value is written as the record writes its field: each demo record\'s values fit its family\'s counts body', () => {
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      const examples = loadOpenApiExamples();
      let checked = 0;
      for (const resource of registry.resources.filter((r) => r.countable.length > 0)) {
        const example = examples[resource.path];
        if (example === undefined) continue;
        const validate = ajv.compile(doc.components.schemas[`${recordTypeName(resource.path)}Counts`]);
        for (const field of resource.countable) {
          const body = { by: field.name, counts: [{ value: example[field.name], count: 1 }], otherItems: 0, totalItems: 1 };
          expect(validate(body), `${resource.path} ${field.name}: ${JSON.stringify(body.counts)} ${JSON.stringify(validate.errors)}`).to.equal(true);
          checked += 1;
        }
      }
      expect(checked, 'the demo records have countable values').to.be.greaterThan(registry.resources.length);
    });
  });
});
