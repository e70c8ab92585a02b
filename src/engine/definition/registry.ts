import { readdir } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DefinitionError } from './definition-error.ts';
import { didYouMean } from './did-you-mean.ts';
import { normalizeResource } from './normalize-resource.ts';
import { tableOf } from './table-of.ts';
import type { Resource } from './resource.ts';
import type { ResourceDefinition } from './resource-definition.ts';

/** Every family the service serves, normalized and frozen. */
export interface Registry {
  readonly resources: readonly Resource[];
  /** The family at a path; throws on an unknown path (a bug in the caller, not a client error). */
  get(path: string): Resource;
}

/** The repository's `resources/` folder. */
export const RESOURCES_DIR = resolve(fileURLToPath(new URL('../../../resources', import.meta.url)));

/** Builds the registry from definitions already in memory. */
export function createRegistry(definitions: readonly ResourceDefinition[]): Registry {
  const byPath = new Map<string, ResourceDefinition>();
  const byTable = new Map<string, string>();
  for (const definition of definitions) {
    const family = String(definition.path);
    if (byPath.has(family)) {
      throw new DefinitionError({ family, key: 'path', message: 'two definitions use this path' });
    }
    const table = tableOf(definition);
    if (byTable.has(table)) {
      throw new DefinitionError({ family, key: 'table', message: `'${table}' is already the table of ${byTable.get(table)}` });
    }
    byPath.set(family, definition);
    byTable.set(table, family);
  }
  const resources = Object.freeze(
    [...byPath.values()]
      .map((definition) => normalizeResource(definition, { definitions: byPath }))
      .sort((a, b) => a.path.localeCompare(b.path)),
  );
  const index = new Map(resources.map((resource) => [resource.path, resource]));
  return Object.freeze({
    resources,
    get(path: string): Resource {
      const resource = index.get(path);
      if (!resource) throw new Error(`no family '${path}' in the registry${didYouMean(path, index.keys())}`);
      return resource;
    },
  });
}

/**
 * The registry of resources/, read once per process. A second read could
 * only differ by a file added or removed since (import() caches every module
 * it loaded), which a running process never serves either; and one frozen
 * registry is compiled once (compile-registry.ts), where each read made
 * another to compile: most of a second of CPU in every test file that
 * started a server on its own read.
 */
let repositoryRegistry: Promise<Registry> | null = null;

/**
 * Loads every definition file of the given folders (resources/ by default,
 * once per process): adding a family is dropping a file in, with no list to
 * edit. Each file default-exports one definition whose `path` equals the
 * file name.
 */
export function loadRegistry({ dirs }: { dirs?: readonly string[] } = {}): Promise<Registry> {
  if (dirs) return readRegistry(dirs);
  if (!repositoryRegistry) {
    repositoryRegistry = readRegistry([RESOURCES_DIR]);
    // A read that failed (a broken definition) is not kept: the next call reads again, and fails again.
    repositoryRegistry.catch(() => {
      repositoryRegistry = null;
    });
  }
  return repositoryRegistry;
}

async function readRegistry(dirs: readonly string[]): Promise<Registry> {
  const definitions: ResourceDefinition[] = [];
  for (const dir of dirs) {
    const files = (await readdir(dir)).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
    for (const file of files) {
      const module = (await import(pathToFileURL(join(dir, file)).href)) as { default?: ResourceDefinition };
      const name = basename(file, extname(file));
      const definition = module.default;
      if (!definition || typeof definition !== 'object') {
        throw new DefinitionError({ family: name, key: 'default', message: 'the file must default-export defineResource({...})' });
      }
      if (definition.path !== name) {
        throw new DefinitionError({ family: name, key: 'path', message: `'${definition.path}' must equal the file name '${name}'` });
      }
      definitions.push(definition);
    }
  }
  return createRegistry(definitions);
}
