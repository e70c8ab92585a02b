import { expect } from 'chai';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { recordTypeName } from '../../src/engine/openapi/build-openapi.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { DEMO_BRAND, seedDemo } from '../../src/seed/demo-seed.ts';
import { createTestKey } from '../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/**
 * The server keeps the promises of its document: for every family, over the
 * demo data and with every include, the list and get responses validate
 * against the schemas the served document declares for them, and so do the
 * error responses and their headers.
 */

type Doc = Record<string, any>;

describe('responses against the served OpenAPI document', () => {
  let server: TestServer;
  let registry: Registry;
  let key: string;
  let doc: Doc;
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();

  /** The validator of a JSON pointer into the document, compiled once. */
  function validatorOf(pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`openapi.json#${pointer}`)!;
      expect(validate, pointer).to.be.a('function');
      validators.set(pointer, validate);
    }
    return validate;
  }

  function expectValid(pointer: string, body: unknown, what: string): void {
    const validate = validatorOf(pointer);
    expect(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
  }

  /** The operation a path of the document declares, and the pointer to its 200 JSON schema. */
  function operationOf(path: string): { operation: Doc; okSchema: string } {
    const operation = doc.paths[path]?.get as Doc | undefined;
    expect(operation, path).to.be.an('object');
    const escaped = path.replace(/~/g, '~0').replace(/\//g, '~1');
    return { operation: operation!, okSchema: `/paths/${escaped}/get/responses/200/content/application~1json/schema` };
  }

  const includeQuery = (resource: Resource): string =>
    resource.includes.length === 0 ? '' : `include=${resource.includes.map((include) => include.name).join(',')}`;

  before(async function () {
    this.timeout(120_000);
    const database = await testDatabase();
    registry = database.registry;
    await resetDatabase(database.db);
    await seedDemo({ db: database.db, registry });
    ({ key } = await createTestKey({ brands: [DEMO_BRAND.slug] }));
    server = await startTestServer();
    doc = (await server.request('/openapi.json', { key: null })).body as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
  });

  after(async () => {
    await server.close();
    await resetDatabase((await testDatabase()).db);
  });

  it('every list, with every include, matches its declared page schema and headers', async () => {
    let checked = 0;
    for (const resource of registry.resources.filter((r) => r.scope !== 'tenant')) {
      const path = `/brands/{brand}/${resource.path}`;
      const { okSchema } = operationOf(path);
      const query = ['limit=2', includeQuery(resource)].filter(Boolean).join('&');
      const response = await server.request(`/brands/${DEMO_BRAND.slug}/${resource.path}?${query}`, { key });
      expect(response.status, `${resource.path}: ${response.text}`).to.equal(200);
      expect(response.body.items, resource.path).to.have.length.above(0);
      expectValid(okSchema, response.body, `list ${resource.path}`);
      expect(response.headers.get('x-request-id'), resource.path).to.be.a('string');
      // The Link header the document declares is there exactly when there is a next page.
      expect(response.headers.get('link') !== null, `${resource.path} Link`).to.equal(response.body.nextCursor !== null);
      checked += 1;
    }
    expect(checked).to.equal(registry.resources.length - 1);
  });

  it('every get, with every include, matches its declared record schema', async () => {
    for (const resource of registry.resources) {
      let url: string;
      let path: string;
      if (resource.scope === 'tenant') {
        path = `/${resource.path}/{brand}`;
        url = `/${resource.path}/${DEMO_BRAND.slug}`;
      } else {
        path = `/brands/{brand}/${resource.path}/{id}`;
        const first = await server.request(`/brands/${DEMO_BRAND.slug}/${resource.path}?limit=1`, { key });
        url = `/brands/${DEMO_BRAND.slug}/${resource.path}/${first.body.items[0].id as string}`;
      }
      const { okSchema } = operationOf(path);
      const query = includeQuery(resource);
      const response = await server.request(query ? `${url}?${query}` : url, { key });
      expect(response.status, `${resource.path}: ${response.text}`).to.equal(200);
      expectValid(okSchema, response.body, `get ${resource.path}`);
      expectValid(`/components/schemas/${recordTypeName(resource.path)}`, response.body, `record ${resource.path}`);
    }
  });

  it('error responses match the declared error body and headers', async () => {
    const errors = [
      { status: 400, response: await server.request(`/brands/${DEMO_BRAND.slug}/products?limit=0`, { key }) },
      { status: 400, response: await server.request(`/brands/${DEMO_BRAND.slug}/products?cursor=nonsense`, { key }) },
      { status: 401, response: await server.request(`/brands/${DEMO_BRAND.slug}/products`, { key: null }) },
      { status: 404, response: await server.request(`/brands/${DEMO_BRAND.slug}/products/00000000-0000-4000-8000-000000000000`, { key }) },
    ];
    for (const { status, response } of errors) {
      expect(response.status).to.equal(status);
      expectValid('/components/schemas/Error', response.body, `${status} ${response.text}`);
      expect(doc.components.responses[{ 400: 'BadRequest', 401: 'Unauthorized', 404: 'NotFound' }[status]!].headers).to.have.property('X-Request-Id');
      expect(response.headers.get('x-request-id')).to.be.a('string');
    }
  });

  it('a 429 matches the declared body and carries the declared Retry-After', async () => {
    const limited = await startTestServer({ rateLimitPoints: 1, rateLimitWindowSeconds: 60 });
    try {
      await limited.request(`/brands/${DEMO_BRAND.slug}/products`, { key });
      const response = await limited.request(`/brands/${DEMO_BRAND.slug}/products`, { key });
      expect(response.status).to.equal(429);
      expectValid('/components/schemas/Error', response.body, response.text);
      expectValid('/components/headers/RetryAfter/schema', Number(response.headers.get('retry-after')), 'Retry-After');
      expect(response.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
