import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createRegistry } from '../../../src/engine/definition/registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { codeSamples, withCodeSamples, type OperationKind } from '../../../src/engine/openapi/code-samples.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';
import { describeDatabaseAgnostic } from '../../support/database-free.ts';

const ID = '22222222-2222-4222-8222-222222222222';
const registry = createRegistry([
  { path: 'brands', scope: 'tenant', area: 'catalog', fields: { id: { type: 'uuid' }, slug: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } },
  { path: 'carton-sizes', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, name: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } } },
  {
    path: 'colors', scope: 'brand', area: 'catalog',
    fields: { id: { type: 'uuid' }, status: { type: 'string' }, pantoneCode: { type: 'string' }, createdAt: { type: 'timestamp', nullable: false } },
    countable: ['status', 'pantoneCode'],
  },
] satisfies ResourceDefinition[]);
const args = { resource: registry.get('carton-sizes'), basePath: '/api/public/v1', id: ID };
const countsArgs = { ...args, resource: registry.get('colors') };
const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL('../../../client/src/index.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('code samples', () => {
  it('gives every operation curl, the TypeScript client and Python requests, with the key and origin from the environment', () => {
    for (const kind of ['list', 'get', 'changes'] as const) {
      const samples = codeSamples(kind, args);
      expect(samples.map((sample) => sample.label)).to.deep.equal(['curl', 'TypeScript client', 'Python (requests)']);
      expect(samples.map((sample) => sample.lang)).to.deep.equal(['Shell', 'TypeScript', 'Python']);
      const [curl, typescript, python] = samples.map((sample) => String(sample.source));
      expect(curl, kind).to.contain('-H "Authorization: Bearer $API_KEY"').and.match(/^curl -s "\$API_URL\/api\/public\/v1\/brands\/northwind\/carton-sizes/);
      expect(typescript, kind).to.contain("import { createClient } from '@brand-catalog/client';").and.contain('apiKey: process.env.API_KEY!');
      expect(python, kind).to.contain('import requests').and.contain("f\"Bearer {os.environ['API_KEY']}\"");
    }
  });

  it('walks the pages of a list, reads a get by the id given, and keeps the token of a changes batch', () => {
    const source = (kind: OperationKind, at: number) => String(codeSamples(kind, args)[at]!.source);
    expect(source('list', 1)).to.contain("for await (const cartonSize of catalog.list('carton-sizes', { limit: 100 }))");
    expect(source('list', 2)).to.contain('params = {"limit": 100, "cursor": page["nextCursor"]}');
    expect(source('get', 0)).to.contain(`/carton-sizes/${ID}"`);
    expect(source('get', 1)).to.contain(`await catalog.get('carton-sizes', '${ID}')`);
    expect(source('changes', 1)).to.contain('syncToken = batch.syncToken;');
    expect(source('changes', 2)).to.contain('sync_token = page["syncToken"]');
    expect(source('brand', 1)).to.contain('await catalog.getBrand()');
  });

  it('counts by the family\'s first countable field, in each language', () => {
    const samples = codeSamples('counts', countsArgs);
    expect(samples.map((sample) => sample.label)).to.deep.equal(['curl', 'TypeScript client', 'Python (requests)']);
    const [curl, typescript, python] = samples.map((sample) => String(sample.source));
    expect(curl).to.match(/^curl -s "\$API_URL\/api\/public\/v1\/brands\/northwind\/colors\/counts\?by=status" \\\n {2}-H "Authorization: Bearer \$API_KEY"\n$/);
    expect(typescript).to.contain("await catalog.counts('colors', { by: 'status' })").and.contain('apiKey: process.env.API_KEY!');
    expect(python).to.contain('params={"by": "status"}').and.contain('/api/public/v1/brands/northwind/colors/counts"').and.contain('body["otherItems"], body["totalItems"]');
  });

  it('gives each operation of a family its samples, and refuses a path it has no kind for', () => {
    const paths = { '/brands/{brand}/carton-sizes': { get: { operationId: 'listCartonSizes' } }, '/brands/{brand}/carton-sizes/{id}': { get: {} } };
    const samples = withCodeSamples(paths, { resource: args.resource, basePath: args.basePath, exampleId: undefined }) as any;
    expect(samples['/brands/{brand}/carton-sizes'].get.operationId).to.equal('listCartonSizes');
    expect(samples['/brands/{brand}/carton-sizes'].get['x-codeSamples']).to.have.length(3);
    expect(samples['/brands/{brand}/carton-sizes/{id}'].get['x-codeSamples'][0].source).to.contain('/carton-sizes/<id>"');
    const counts = withCodeSamples({ '/brands/{brand}/colors/counts': { get: {} } }, { resource: countsArgs.resource, basePath: args.basePath, exampleId: undefined }) as any;
    expect(counts['/brands/{brand}/colors/counts'].get['x-codeSamples']).to.deep.equal(codeSamples('counts', { ...countsArgs, id: '<id>' }));
    expect(() => withCodeSamples({ '/carton-sizes/{x}': { get: {} } }, { resource: args.resource, basePath: '', exampleId: undefined }))
      .to.throw('carton-sizes: no code samples for /carton-sizes/{x}');
  });
});

/** Runs each sample of the served document against a server, as a reader would: they must work as printed. */
describeDatabaseAgnostic?.('code samples, run against the server', function () {
  this.timeout(120_000);
  const server = useServer();
  let env: NodeJS.ProcessEnv;
  let folder: string;
  let doc: any;
  before(async () => {
    doc = (await server.request('/openapi.json')).body;
    const { brand, key } = await resetToBrand('northwind');
    const id = /\/carton-sizes\/([0-9a-f-]{36})"/.exec(doc.paths['/brands/{brand}/carton-sizes/{id}'].get['x-codeSamples'][0].source)![1]!;
    await insert('carton-sizes', brand.id, [{ id, name: 'Sampled carton' }]);
    await insert('colors', brand.id, [{ code: 'SAMPLED', name: 'Sampled colour', status: 'sampled-status' }]);
    env = { ...process.env, API_URL: server.origin, API_KEY: key };
    folder = await mkdtemp(join(tmpdir(), 'code-samples-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const samplesOf = (path: string) => doc.paths[path].get['x-codeSamples'] as { label: string; source: string }[];
  /** What each language's sample prints of the demo brand: curl the body, the others as their sample says. */
  const carton = { curl: 'Sampled carton', typescript: /[0-9a-f-]{36}|Sampled carton/, python: /[0-9a-f-]{36}/ };
  const PRINTS: Record<string, { curl: string; typescript: RegExp; python: RegExp }> = {
    '/brands/{brand}': { curl: '"slug":"northwind"', typescript: /northwind/, python: /northwind/ },
    '/brands/{brand}/carton-sizes': carton,
    '/brands/{brand}/carton-sizes/{id}': carton,
    '/brands/{brand}/carton-sizes/changes': carton,
    // The one colour of its status, counted.
    '/brands/{brand}/colors/counts': { curl: '{"value":"sampled-status","count":1}', typescript: /^sampled-status 1$/m, python: /^sampled-status 1$/m },
  };
  const PATHS = Object.keys(PRINTS);

  it('the TypeScript samples type-check, strict, against the client', async () => {
    const tsconfig = {
      compilerOptions: {
        strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', allowImportingTsExtensions: true,
        skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      include: ['*.mts'],
    };
    await writeFile(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
    for (const [at, path] of PATHS.entries()) {
      await writeFile(join(folder, `typed-${at}.mts`), `${samplesOf(path)[1]!.source.replace("'@brand-catalog/client'", JSON.stringify(CLIENT))}export {};\n`);
    }
    await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', folder]).catch((error: { stdout: string }) => {
      throw new Error(`tsc: ${error.stdout}`);
    });
  });

  for (const path of PATHS) {
    it(`${path}: curl prints the API's answer`, async () => {
      const { stdout } = await run('sh', ['-c', samplesOf(path)[0]!.source], { env });
      expect(stdout).to.contain(PRINTS[path]!.curl);
    });

    it(`${path}: the TypeScript sample runs against the client's source`, async () => {
      const file = join(folder, `${path.replaceAll(/\W+/g, '-')}.mts`);
      await writeFile(file, samplesOf(path)[1]!.source.replace("'@brand-catalog/client'", JSON.stringify(CLIENT)));
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env });
      expect(stdout).to.match(PRINTS[path]!.typescript);
    });

    it(`${path}: the Python sample runs with requests`, async function () {
      // Where Python with requests is missing the sample cannot run: skipped on a developer's machine, a
      // failure in CI (CI=true), whose machine has both, so CI never passes without running it.
      if (await run('python3', ['-c', 'import requests']).then(() => false, () => true)) {
        if (process.env.CI) throw new Error('CI needs python3 with requests to run the Python samples (pip install requests)');
        this.skip();
      }
      const { stdout } = await run('python3', ['-c', samplesOf(path)[2]!.source], { env });
      expect(stdout).to.match(PRINTS[path]!.python);
    });
  }
});
