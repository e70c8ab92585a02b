import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import { useClientApi } from './use-client-api.ts';
import { describeDatabaseAgnostic } from '../support/database-free.ts';

/**
 * The client as a package: built with `tsc -p client` (into a folder of this
 * test, not client/dist), installed by copy as `@brand-catalog/client`, then
 * imported by name from plain Node (no tsx) and type-checked from a consumer.
 */

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/.bin/tsc');

describeDatabaseAgnostic?.('client as a package (@brand-catalog/client)', function () {
  this.timeout(60_000);
  const api = useClientApi();
  let project: string;
  let packageDir: string;

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'bcat-client-'));
    packageDir = join(project, 'node_modules/@brand-catalog/client');
    await mkdir(packageDir, { recursive: true });
    await cp(join(ROOT, 'client/package.json'), join(packageDir, 'package.json'));
    await run(TSC, ['-p', join(ROOT, 'client'), '--outDir', join(packageDir, 'dist')], { cwd: ROOT });
    await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  });
  after(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('builds to the files its exports name', async () => {
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { exports: { '.': { types: string; default: string } }; dependencies?: unknown };
    expect(manifest.dependencies, 'no runtime dependencies').to.equal(undefined);
    for (const file of [manifest.exports['.'].types, manifest.exports['.'].default]) {
      expect(await readFile(join(packageDir, file), 'utf8'), file).to.contain('families.generated');
    }
  });

  it('is imported by name from plain Node and lists a family', async () => {
    const sizes = await insert('carton-sizes', api.brand.id, [{ name: 'Small' }, { name: 'Large' }, { name: 'Flat, "thin"' }]);
    await writeFile(join(project, 'list.mjs'), [
      "import { createClient, FAMILIES } from '@brand-catalog/client';",
      'const client = createClient({ baseUrl: process.env.API_URL, apiKey: process.env.API_KEY, brand: "acme" });',
      'const names = [];',
      'for await (const size of client.list("carton-sizes", { limit: 2 })) names.push(size.name);',
      'console.log(JSON.stringify({ names, fields: FAMILIES["carton-sizes"].fields }));',
    ].join('\n'));
    const { stdout } = await run(process.execPath, ['list.mjs'], {
      cwd: project,
      env: { PATH: process.env.PATH, API_URL: api.server.origin, API_KEY: api.key },
    });
    expect(JSON.parse(stdout)).to.deep.equal({
      names: sizes.map((size) => size.name),
      fields: ['id', 'name', 'lengthCm', 'widthCm', 'heightCm', 'createdAt', 'updatedAt'],
    });
  });

  it('gives a TypeScript consumer its types: records, includes, changes, and errors on a bad filter or field', async () => {
    await symlink(join(ROOT, 'node_modules/@types'), join(project, 'node_modules/@types'));
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] },
      files: ['consumer.ts'],
    }));
    const consumer = (extra: string): string => [
      "import { createClient, ApiError, SyncTokenExpiredError, type Product, type Sku } from '@brand-catalog/client';",
      "const client = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', brand: 'acme' });",
      'export async function skusOf(): Promise<Sku[]> {',
      "  const product = await client.get('products', 'id', { include: ['skus'] });",
      '  return product.skus;',
      '}',
      'export const isApiError = (error: unknown): boolean => error instanceof ApiError;',
      '/** The loop of the README: items until done, whose value is the next token; a 410 means starting over. */',
      'export async function sync(syncToken: string | null, copy: Map<string, Product>): Promise<string | null> {',
      '  try {',
      '    const batch = client.products.changes({ syncToken });',
      '    for (;;) {',
      '      const step = await batch.next();',
      '      if (step.done) return step.value;',
      "      if (step.value.change === 'delete') copy.delete(step.value.id);",
      '      else copy.set(step.value.id, step.value.record);',
      '    }',
      '  } catch (error) {',
      '    if (error instanceof SyncTokenExpiredError) return null;',
      '    throw error;',
      '  }',
      '}',
      "export async function names(): Promise<string | null> {",
      "  const batch = client['carton-sizes'].changes({ fields: ['name'] });",
      "  for await (const item of batch) if (item.change === 'upsert') console.log(item.record.name);",
      '  return batch.syncToken;',
      '}',
      extra,
    ].join('\n');

    await writeFile(join(project, 'consumer.ts'), consumer(''));
    await run(TSC, ['-p', project], { cwd: project });

    await writeFile(join(project, 'consumer.ts'), consumer("client.list('products', { filters: { stauts: 'approved' } });"));
    const failed = await run(TSC, ['-p', project], { cwd: project }).then(() => null, (error: { stdout: string }) => error);
    expect(failed, 'a misspelt filter must not compile').to.not.equal(null);
    expect(failed!.stdout).to.contain('stauts');

    // A field the changes feed's records lack after `fields` does not compile either.
    await writeFile(join(project, 'consumer.ts'), consumer("for await (const item of client.skus.changes({ fields: ['code'] })) if (item.change === 'upsert') item.record.productId;"));
    const narrowed = await run(TSC, ['-p', project], { cwd: project }).then(() => null, (error: { stdout: string }) => error);
    expect(narrowed, 'a field left out by fields must not compile').to.not.equal(null);
    expect(narrowed!.stdout).to.contain('productId');
  });
});
