import { loadRegistry, type Registry } from '../../../src/engine/definition/registry.ts';
import { buildOpenApi } from '../../../src/engine/openapi/build-openapi.ts';
import { loadOpenApiExamples } from '../../../src/server/http/api-document.ts';
import { API_BASE_PATH } from '../../../src/server/http/api-base-path.ts';

/**
 * The OpenAPI document of the whole registry, as `npm run docs` writes it
 * (with the demo examples), and what the tests of `src/engine/openapi/` read
 * it with: references resolved, every `$ref` in a value, operations one by one.
 */

// The document is a tree of plain JSON values: `any` keeps the tests short.
export type Doc = Record<string, any>;

let built: Promise<{ registry: Registry; doc: Doc }> | undefined;

/** The registry and its document, built once per test process (every test only reads them). */
export function builtDocument(): Promise<{ registry: Registry; doc: Doc }> {
  built ??= loadRegistry().then((registry) => ({
    registry,
    doc: buildOpenApi(registry, { basePath: API_BASE_PATH, examples: loadOpenApiExamples() }) as Doc,
  }));
  return built;
}

/** The value a local `$ref` (`#/components/...`) points at, or undefined when it points at nothing. */
export function resolveRef(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let value: unknown = doc;
  for (const token of ref.slice(2).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, token)) return undefined;
    value = (value as Doc)[token];
  }
  return value;
}

/** A parameter as written in an operation, its reference followed (throws on a reference to nothing). */
export function resolveParameter(doc: Doc, parameter: Doc): Doc {
  if (parameter.$ref === undefined) return parameter;
  const target = resolveRef(doc, String(parameter.$ref));
  if (target === undefined) throw new Error(`${String(parameter.$ref)} resolves to nothing`);
  return target as Doc;
}

/** Every `$ref` in a value, however deep, in document order. */
export function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner)));
}

/**
 * A cycle of references in the document, as the list of references walked
 * (the first repeated at the end: `[A, B, A]`), or null when there is none.
 * Every reference reachable from the document's root is followed, wherever it
 * sits (a schema, a parameter, a response, a header).
 */
export function findRefCycle(doc: Doc): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (ref: string): string[] | null => {
    if (state.get(ref) === 'done') return null;
    if (state.get(ref) === 'open') return [...stack.slice(stack.indexOf(ref)), ref];
    state.set(ref, 'open');
    stack.push(ref);
    for (const next of refsIn(resolveRef(doc, ref))) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(ref, 'done');
    return null;
  };
  for (const ref of refsIn(doc)) {
    const cycle = visit(ref);
    if (cycle) return cycle;
  }
  return null;
}

/** One operation of the document, with its path and method. */
export interface Operation {
  readonly path: string;
  readonly method: string;
  readonly operation: Doc;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: Doc): Operation[] {
  return Object.entries(doc.paths as Doc).flatMap(([path, item]) =>
    Object.entries(item as Doc).map(([method, operation]) => ({ path, method, operation: operation as Doc })));
}

/** JSON with the keys of every object sorted: two values are alike exactly when their texts are equal, whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
}

/** The paths of a family's operations in the document, by kind (CONTRACT.md §1, §6, §8). */
export function familyPathsOf(resource: { path: string; scope: string; countable: readonly unknown[] }): {
  brand?: string;
  list?: string;
  get?: string;
  counts?: string;
  changes?: string;
} {
  if (resource.scope === 'tenant') return { brand: `/${resource.path}/{brand}` };
  const list = `/brands/{brand}/${resource.path}`;
  return {
    list,
    get: `${list}/{id}`,
    ...(resource.countable.length > 0 ? { counts: `${list}/counts` } : {}),
    changes: `${list}/changes`,
  };
}
