/**
 * `npm run docs [-- --check]`: writes what the docs derive from the registry:
 * - `docs/openapi-examples.json`: one demo record per family, read from a
 *   throwaway embedded database loaded with the demo seed (the server quotes
 *   them in the OpenAPI document it serves);
 * - `docs/openapi.json`: the OpenAPI document, exactly as the server serves it;
 * - `docs/reference/`: a Markdown page per family and an index.
 * With `--check` it writes nothing and exits 1 when a committed file is stale
 * (CI runs it so).
 */
import { readdir, rm } from 'node:fs/promises';
import { API_BASE_PATH } from '../src/server/http/api-base-path.ts';
import { join } from 'node:path';
import { buildOpenApi } from '../src/engine/openapi/build-openapi.ts';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { DOCS_DIR, OPENAPI_EXAMPLES_FILE } from '../src/server/http/api-document.ts';
import { readDemoExamples } from './generate/demo-examples.ts';
import { reportGeneratedFiles, syncGeneratedFiles, type GeneratedFile } from './generate/generated-files.ts';
import { renderReference } from './generate/render-reference.ts';

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  process.stderr.write(`unknown argument: ${unknown.join(' ')}\nusage: npm run docs [-- --check]\n`);
  process.exit(2);
}
const check = args.includes('--check');

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const registry = await loadRegistry();
const examples = await readDemoExamples(registry);
const referenceDir = join(DOCS_DIR, 'reference');
const files: GeneratedFile[] = [
  { path: OPENAPI_EXAMPLES_FILE, content: json(examples) },
  { path: join(DOCS_DIR, 'openapi.json'), content: json(buildOpenApi(registry, { basePath: API_BASE_PATH, examples })) },
  ...[...renderReference(registry, examples)].map(([name, content]) => ({ path: join(referenceDir, name), content })),
];

// A page of a family that no longer exists is stale too.
const expected = new Set(files.map((file) => file.path));
const leftovers = (await readdir(referenceDir).catch(() => [] as string[]))
  .map((name) => join(referenceDir, name))
  .filter((path) => !expected.has(path));
if (!check) await Promise.all(leftovers.map((path) => rm(path)));

const changed = [...(await syncGeneratedFiles(files, { check })), ...leftovers];
reportGeneratedFiles(changed, { check, what: 'docs', command: 'npm run docs' });
