import { expect } from 'chai';
import type { Registry } from '../../../src/engine/definition/registry.ts';
import { changesPaths } from '../../../src/engine/openapi/changes-paths.ts';
import { countsPaths } from '../../../src/engine/openapi/counts-paths.ts';
import { familyPaths } from '../../../src/engine/openapi/family-paths.ts';
import { shareParameters } from '../../../src/engine/openapi/shared-parameters.ts';
import { loadOpenApiExamples } from '../../../src/server/http/api-document.ts';
import { builtDocument, canonicalJson, operationsOf, refsIn, resolveParameter, type Doc } from './built-document.ts';

const query = (name: string, description: string, schema: Doc = { type: 'string' }): Doc => ({ name, in: 'query', required: false, description, schema });
const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const BRAND = { name: 'brand', in: 'path', required: true, description: 'The brand.', schema: { type: 'string' } };

describe('shareParameters', () => {
  const status = query('status', 'Exact match on `status`.', { type: 'array', items: { type: 'string' }, maxItems: 100 });
  const searchCode = query('search', 'Substring of `code`.');
  const searchName = query('search', 'Substring of `name`.');
  const totalAmount = query('totalAmount[gte]', 'At least this decimal.');
  const once = query('defaultCurveId', 'Used by one operation.');
  const id = { name: 'id', in: 'path', required: true, description: 'Id.', schema: { type: 'string' } };
  const paths = {
    '/brands/{brand}/orders': { get: { operationId: 'listOrders', parameters: [ref('Brand'), status, searchCode, totalAmount, once] } },
    '/brands/{brand}/orders/{id}': { get: { operationId: 'getOrder', parameters: [ref('Brand'), id] } },
    '/brands/{brand}/orders/counts': { get: { operationId: 'countOrders', parameters: [ref('Brand'), status, searchCode, totalAmount] } },
    '/brands/{brand}/skus': { get: { operationId: 'listSkus', parameters: [ref('Brand'), status, searchName] } },
    '/brands/{brand}/skus/{id}': { get: { operationId: 'getSku', parameters: [ref('Brand'), id] } },
    '/brands/{brand}/styles': { get: { operationId: 'listStyles', parameters: [searchCode] } },
    '/brands/{brand}/colors': { get: { operationId: 'listColors', parameters: [searchName] } },
    '/brands/{brand}/plain': { get: { operationId: 'plain' } },
  };
  const shared = shareParameters({ paths, components: { Brand: BRAND } });
  const parametersOf = (path: keyof typeof paths) => (shared.paths[path] as Doc).get.parameters as Doc[];

  it('moves a query parameter that two or more operations give alike under components, and refers to it from each', () => {
    // `status`: two families, by its name; `search`: two of them, numbered in document order;
    // `totalAmount[gte]`: one family's list and counts, after the family.
    expect(parametersOf('/brands/{brand}/orders')).to.deep.equal([ref('Brand'), ref('Status'), ref('Search'), ref('OrderTotalAmountGte'), once]);
    expect(parametersOf('/brands/{brand}/orders/counts')).to.deep.equal([ref('Brand'), ref('Status'), ref('Search'), ref('OrderTotalAmountGte')]);
    expect(parametersOf('/brands/{brand}/skus')).to.deep.equal([ref('Brand'), ref('Status'), ref('Search2')]);
    expect(parametersOf('/brands/{brand}/styles')).to.deep.equal([ref('Search')]);
    expect(parametersOf('/brands/{brand}/colors')).to.deep.equal([ref('Search2')]);
    expect(shared.parameters).to.deep.equal({ Brand: BRAND, Status: status, Search: searchCode, OrderTotalAmountGte: totalAmount, Search2: searchName });
  });

  it('keeps inline a parameter one operation gives, a path parameter, and the operation\'s other keys', () => {
    expect(parametersOf('/brands/{brand}/orders')[4]).to.deep.equal(once);
    expect(parametersOf('/brands/{brand}/orders/{id}')).to.deep.equal([ref('Brand'), id]);
    expect(parametersOf('/brands/{brand}/skus/{id}')).to.deep.equal([ref('Brand'), id]);
    expect((shared.paths['/brands/{brand}/orders'] as Doc).get.operationId).to.equal('listOrders');
    expect(shared.paths['/brands/{brand}/plain']).to.deep.equal({ get: { operationId: 'plain' } });
    expect(Object.keys(shared.paths)).to.deep.equal(Object.keys(paths));
  });

  it('numbers a name a component already has', () => {
    const { parameters } = shareParameters({ paths, components: { Brand: BRAND, Status: query('status', 'Another one.') } });
    expect(Object.keys(parameters)).to.deep.equal(['Brand', 'Status', 'Status2', 'Search', 'OrderTotalAmountGte', 'Search2']);
    expect(parameters.Status2).to.deep.equal(status);
  });

  describe('in the document of the whole registry', () => {
    let registry: Registry;
    let doc: Doc;
    before(async () => {
      ({ registry, doc } = await builtDocument());
    });

    it('every reference to a parameter resolves to one under components/parameters', () => {
      const refs = refsIn(doc).filter((target) => target.startsWith('#/components/parameters/'));
      expect(refs.length).to.be.greaterThan(registry.resources.length * 10);
      const missing = [...new Set(refs)].filter((target) => !Object.hasOwn(doc.components.parameters, target.slice('#/components/parameters/'.length)));
      expect(missing).to.deep.equal([]);
      for (const { path, operation } of operationsOf(doc)) {
        for (const parameter of operation.parameters as Doc[]) {
          if (parameter.$ref !== undefined) expect(parameter.$ref, path).to.match(/^#\/components\/parameters\/[A-Za-z0-9]+$/);
        }
      }
    });

    it('no two components are alike: the sharing says each parameter once', () => {
      const byText = new Map<string, string[]>();
      for (const [name, parameter] of Object.entries(doc.components.parameters as Doc)) {
        const text = canonicalJson(parameter);
        byText.set(text, [...(byText.get(text) ?? []), name]);
      }
      expect([...byText.values()].filter((names) => names.length > 1)).to.deep.equal([]);
      expect(byText.size).to.equal(Object.keys(doc.components.parameters).length);
    });

    it('a query parameter one operation gives stays inline; every component is referenced by two operations or more', () => {
      const components = new Set(Object.values(doc.components.parameters as Doc).map(canonicalJson));
      const inline = new Map<string, string[]>();
      const uses = new Map<string, number>();
      for (const { path, operation } of operationsOf(doc)) {
        for (const parameter of operation.parameters as Doc[]) {
          if (parameter.$ref !== undefined) {
            uses.set(parameter.$ref, (uses.get(parameter.$ref) ?? 0) + 1);
            continue;
          }
          if (parameter.in !== 'query') continue;
          const text = canonicalJson(parameter);
          inline.set(text, [...(inline.get(text) ?? []), `${path} ${parameter.name}`]);
          expect(components.has(text), `${path} ${parameter.name} is a component, yet inline`).to.equal(false);
        }
      }
      expect(inline.size, 'some parameters are given by one operation only (each list\'s sort, each counts\' by)').to.be.greaterThan(0);
      expect([...inline.values()].filter((where) => where.length > 1), 'given alike by two operations, yet inline').to.deep.equal([]);
      const seldom = Object.keys(doc.components.parameters).filter((name) => (uses.get(`#/components/parameters/${name}`) ?? 0) < 2);
      expect(seldom, 'components referenced by fewer than two operations').to.deep.equal([]);
    });

    it('the changes feed\'s own parameters are the components SyncToken, ChangesCursor, ChangesLimit and Wait', () => {
      const names = { SyncToken: 'syncToken', ChangesCursor: 'cursor', ChangesLimit: 'limit', Wait: 'wait' };
      for (const [component, name] of Object.entries(names)) expect(doc.components.parameters[component], component).to.include({ name, in: 'query' });
      for (const resource of registry.resources.filter((r) => r.scope !== 'tenant')) {
        const parameters = doc.paths[`/brands/{brand}/${resource.path}/changes`].get.parameters as Doc[];
        expect(parameters.slice(1, 5), resource.path).to.deep.equal(Object.keys(names).map(ref));
      }
    });

    it('loses nothing: every operation\'s parameters, references followed, are those its family gives', () => {
      const examples = loadOpenApiExamples();
      for (const resource of registry.resources) {
        const unshared: Doc = resource.scope === 'tenant'
          ? familyPaths(resource, examples[resource.path])
          : { ...familyPaths(resource, examples[resource.path]), ...countsPaths(resource), ...changesPaths(resource) };
        for (const [path, item] of Object.entries(unshared)) {
          const given = ((item as Doc).get.parameters as Doc[]).map((parameter) => resolveParameter(doc, parameter));
          const written = (doc.paths[path].get.parameters as Doc[]).map((parameter) => resolveParameter(doc, parameter));
          expect(written, path).to.deep.equal(given);
        }
      }
    });
  });
});
