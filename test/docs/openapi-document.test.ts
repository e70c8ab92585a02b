import SwaggerParser from '@apidevtools/swagger-parser';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ERROR_CODES } from '../../src/engine/request/api-error.ts';
import { API_VERSION, buildOpenApi, recordTypeName } from '../../src/engine/openapi/build-openapi.ts';
import { loadRegistry, type Registry } from '../../src/engine/definition/registry.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { MATCH_KINDS } from '../../src/engine/compile/match-kinds.ts';
import { withoutDescription } from '../../src/engine/openapi/optional-parameter.ts';
import { DOCS_DIR, loadOpenApiExamples } from '../../src/server/http/api-document.ts';
import { useServer } from '../support/use-server.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

/**
 * The OpenAPI document as clients get it: valid OpenAPI 3.1, lint-clean,
 * complete for every family, served without a key, and the same as the
 * committed `docs/openapi.json`.
 */

type Doc = Record<string, any>;

/**
 * A parameter of an operation, its reference followed: parameters that
 * several operations give alike are components (shared-parameters.ts).
 */
function resolveParameter(doc: Doc, parameter: Doc): Doc {
  if (!parameter.$ref) return parameter;
  const name = /^#\/components\/parameters\/(\w+)$/.exec(parameter.$ref)?.[1];
  const component = name === undefined ? undefined : doc.components.parameters[name];
  if (component === undefined) throw new Error(`${parameter.$ref} resolves to no parameter`);
  return component;
}

describe('the OpenAPI document', () => {
  let registry: Registry;
  let doc: Doc;

  before(async () => {
    registry = await loadRegistry();
    doc = buildOpenApi(registry, { basePath: API_BASE_PATH, examples: loadOpenApiExamples() });
  });

  it('is valid OpenAPI 3.1 for swagger-parser', async () => {
    // swagger-parser dereferences in place: give it a copy.
    const api = (await SwaggerParser.validate(structuredClone(doc) as any)) as Doc;
    expect(api.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal(API_VERSION).and.equal('1.5.0');
  });

  it('lints clean with Redocly (strict recommended rules, redocly.yaml)', async function () {
    this.timeout(120_000);
    const run = promisify(execFile);
    // Lints the committed file, which another test holds equal to the built document.
    const { stdout, stderr } = await run('npx', ['--no-install', 'redocly', 'lint', join(DOCS_DIR, 'openapi.json'), '--format', 'summary'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${error.stderr}`);
    });
    expect(`${stdout}${stderr}`).to.match(/Your API description is valid/);
    // Redocly prints "You have N warnings." when there are any (its Node 20 notice says "warning" too).
    expect(`${stdout}${stderr}`).not.to.match(/You have \d+ warnings?/);
  });

  it('equals the committed docs/openapi.json (run `npm run docs` after changing resources/)', async () => {
    const committed = JSON.parse(await readFile(join(DOCS_DIR, 'openapi.json'), 'utf8')) as Doc;
    expect(committed).to.deep.equal(doc);
  });

  it('declares the bearer scheme for every operation and the shared error responses', () => {
    expect(doc.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
    expect(doc.security).to.deep.equal([{ bearerAuth: [] }]);
    expect(doc.components.schemas.Error.required).to.deep.equal(['error', 'errorCode']);
    expect(doc.components.schemas.Error.properties.errorCode.enum).to.have.members(Object.keys(ERROR_CODES));
    expect(doc.components.responses.RateLimited.headers).to.have.property('Retry-After');
  });

  it('has a list and a get operation for every family, with every spec status', () => {
    const operations: Doc[] = [];
    for (const resource of registry.resources) {
      const name = recordTypeName(resource.path);
      if (resource.scope === 'tenant') {
        operations.push(doc.paths[`/${resource.path}/{brand}`].get);
        continue;
      }
      const list = doc.paths[`/brands/{brand}/${resource.path}`]?.get;
      const get = doc.paths[`/brands/{brand}/${resource.path}/{id}`]?.get;
      expect(list, `list ${resource.path}`).to.be.an('object');
      expect(get, `get ${resource.path}`).to.be.an('object');
      expect(list.responses['200'].content['application/json'].schema.$ref).to.equal(`#/components/schemas/${name}List`);
      expect(list.responses['200'].headers).to.have.property('Link');
      expect(get.responses['200'].content['application/json'].schema.$ref).to.equal(`#/components/schemas/${name}`);
      operations.push(list, get);
    }
    expect(operations).to.have.length(registry.resources.length * 2 - 1);
    for (const operation of operations) {
      expect(Object.keys(operation.responses), operation.operationId).to.have.members(['200', '304', '400', '401', '404', '429', '500', '503']);
      expect(operation.tags).to.have.length(1);
      expect(operation.description, operation.operationId).to.be.a('string').and.not.equal('');
    }
  });

  it('documents every filter with its schema and how it matches, and every include by name', () => {
    for (const resource of registry.resources.filter((r) => r.scope !== 'tenant')) {
      const parameters: Doc[] = doc.paths[`/brands/{brand}/${resource.path}`].get.parameters;
      const byName = new Map(parameters.map((p) => resolveParameter(doc, p)).map((p) => [p.name as string, p]));
      // The schemas the server validates a list's query with: one source, so the document and the validation agree.
      const schemas = filterSchemas(resource);
      for (const filter of resource.filters) {
        const parameter = byName.get(filter.name);
        expect(parameter, `${resource.path} filter ${filter.name}`).to.include({ in: 'query', required: false });
        expect(parameter!.description, `${resource.path} ${filter.name}`).to.be.a('string').with.length.above(10);
        expect(parameter!.description, `${resource.path} ${filter.name}`).to.equal(schemas[filter.name]!.description);
        expect(parameter!.schema, `${resource.path} ${filter.name}`).to.deep.equal(withoutDescription(schemas[filter.name]!));
        // Several values (any of) only where the filter takes them: a repeated parameter.
        const anyOf = MATCH_KINDS[filter.match].anyOf;
        expect(parameter!.schema.type === 'array', `${resource.path} ${filter.name}`).to.equal(anyOf);
        expect(parameter!.style, `${resource.path} ${filter.name}`).to.equal(anyOf ? 'form' : undefined);
        expect(parameter!.explode, `${resource.path} ${filter.name}`).to.equal(anyOf ? true : undefined);
      }
      if (resource.includes.length === 0) {
        expect(byName.has('include'), resource.path).to.equal(false);
      } else {
        for (const include of resource.includes) expect(byName.get('include')!.description).to.contain(`\`${include.name}\``);
      }
      const refs = parameters.filter((p) => p.$ref).map((p) => p.$ref);
      expect(refs).to.include.members(['#/components/parameters/Brand', '#/components/parameters/Cursor', '#/components/parameters/Limit']);
    }
  });

  it('quotes a demo record for every family, valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    for (const resource of registry.resources) {
      const schema = doc.components.schemas[recordTypeName(resource.path)];
      expect(schema.examples, resource.path).to.have.length(1);
      const validate = ajv.getSchema(`openapi.json#/components/schemas/${recordTypeName(resource.path)}`)!;
      expect(validate(schema.examples[0]), `${resource.path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });

  it('gives every operation of every family code samples in curl, the TypeScript client and Python', () => {
    const operations = Object.entries(doc.paths).map(([path, item]) => [path, (item as Doc).get as Doc] as const);
    // The brand's get; a list, a get and a changes feed of every other family, and counts where it has countable fields.
    const expected = registry.resources.reduce((sum, r) => sum + (r.scope === 'tenant' ? 1 : 3 + (r.countable.length > 0 ? 1 : 0)), 0);
    expect(operations).to.have.length(expected);
    expect(operations.filter(([path]) => path.endsWith('/counts')), 'counts routes').to.not.be.empty;
    for (const [path, operation] of operations) {
      const samples = operation['x-codeSamples'] as Doc[];
      expect(samples.map((sample) => sample.label), path).to.deep.equal(['curl', 'TypeScript client', 'Python (requests)']);
      const curl = String(samples[0]!.source);
      const url = `$API_URL${API_BASE_PATH}${path.replace('{brand}', 'northwind')}`;
      expect(curl.startsWith(`curl -s "${url.replace(/\{id\}$/, '')}`), `${path}: ${curl}`).to.equal(true);
      // A get asks for the demo record the document quotes, which the demo data has.
      if (path.endsWith('{id}')) expect(curl, path).to.match(/\/[0-9a-f-]{36}"/);
      // A count asks for one of the fields it counts by.
      if (path.endsWith('/counts')) {
        const by = (operation.parameters as Doc[]).map((p) => resolveParameter(doc, p)).find((p) => p.name === 'by')!;
        expect(by.schema.enum, path).to.include(/\/counts\?by=(\w+)"/.exec(curl)?.[1]);
      }
    }
  });

  it('fills in no optional parameter for "try it": nothing is sent that the user did not set', () => {
    const fillable = (parameter: Doc) => parameter.example !== undefined || parameter.examples !== undefined
      || ['default', 'enum', 'examples', 'example'].some((keyword) => parameter.schema?.[keyword] !== undefined);
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const parameter of ((item as Doc).get.parameters as Doc[]).map((p) => resolveParameter(doc, p))) {
        if (parameter.required || !fillable(parameter)) continue;
        checked += 1;
        // The first example is the one renderers fill the input from: it has no value.
        expect(parameter, `${path} ${parameter.name}`).to.not.have.property('example');
        const [first, ...rest] = Object.entries(parameter.examples as Doc);
        expect(first, `${path} ${parameter.name}`).to.deep.equal(['default', { summary: 'Not sent', description: 'Leave it out to get what the API does without it.' }]);
        for (const [, example] of rest) expect(example, `${path} ${parameter.name}`).to.have.property('value');
      }
    }
    expect(checked, 'limit, include, fields, enum and time filters at least').to.be.greaterThan(registry.resources.length * 2);
  });

  describeDatabaseAgnostic?.('as served', () => {
    const server = useServer();

    it('is served without a key at /api/public/v1/openapi.json, the same document', async () => {
      const response = await server.request('/openapi.json', { key: null });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(response.body).to.deep.equal(doc);
    });
  });
});
