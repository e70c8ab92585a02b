import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { API_BASE_PATH } from '../../../src/server/http/api-base-path.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { buildOpenApi, recordTypeName } from '../../../src/engine/openapi/build-openapi.ts';
import { buildApiDocument, DOCS_DIR, loadOpenApiExamples, OPENAPI_EXAMPLES_FILE } from '../../../src/server/http/api-document.ts';
import { loadRegistry, type Registry } from '../../../src/engine/definition/registry.ts';

describe('the served API document', () => {
  let registry: Registry;
  let dir: string;
  before(async () => {
    registry = await loadRegistry();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bcat-api-document-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the examples `npm run docs` wrote beside the document, one record per family of the registry', async () => {
    expect(OPENAPI_EXAMPLES_FILE).to.equal(join(DOCS_DIR, 'openapi-examples.json'));
    const examples = loadOpenApiExamples();
    const paths = registry.resources.map((resource) => resource.path);
    expect(Object.keys(examples)).to.not.be.empty;
    expect(Object.keys(examples).filter((path) => !paths.includes(path)), 'examples of no family').to.deep.equal([]);
    for (const [path, record] of Object.entries(examples)) expect(record, path).to.have.property('id');
  });

  it('has no examples when the file is missing, and refuses one that is not JSON', async () => {
    expect(loadOpenApiExamples(join(dir, 'missing.json'))).to.deep.equal({});
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{ "carton-sizes": ');
    expect(() => loadOpenApiExamples(broken)).to.throw(SyntaxError);
    // Anything but a missing file is a fault of the installation, not "no examples".
    expect(() => loadOpenApiExamples(dir)).to.throw(/EISDIR/);
  });

  it('is the document of the registry quoting those examples', async () => {
    const document = buildApiDocument(registry);
    expect(document).to.deep.equal(buildOpenApi(registry, { basePath: API_BASE_PATH, examples: loadOpenApiExamples() }));
    const schemas = (document.components as { schemas: Record<string, { examples?: unknown[] }> }).schemas;
    const [path, record] = Object.entries(loadOpenApiExamples())[0]!;
    expect(schemas[recordTypeName(path)]!.examples).to.deep.equal([record]);
  });
});
