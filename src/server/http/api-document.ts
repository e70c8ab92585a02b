import { readFileSync } from 'node:fs';
import { API_BASE_PATH } from './api-base-path.ts';
import { fileURLToPath } from 'node:url';
import type { JsonSchema } from '../../engine/compile/field-types.ts';
import { buildOpenApi, type OpenApiExamples } from '../../engine/openapi/build-openapi.ts';
import type { Registry } from '../../engine/definition/registry.ts';

/** The repository's `docs/` folder. */
export const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

/** One demo record per family, written by `npm run docs` and quoted by the served document. */
export const OPENAPI_EXAMPLES_FILE = fileURLToPath(new URL('../../../docs/openapi-examples.json', import.meta.url));

/**
 * The examples `npm run docs` wrote, or none when the file is missing: the
 * document is complete without them, and a family added since the last run
 * simply has no example until the next.
 */
export function loadOpenApiExamples(file = OPENAPI_EXAMPLES_FILE): OpenApiExamples {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return JSON.parse(text) as OpenApiExamples;
}

/** The OpenAPI document the server serves, the same as `docs/openapi.json`. */
export function buildApiDocument(registry: Registry): JsonSchema {
  return buildOpenApi(registry, { basePath: API_BASE_PATH, examples: loadOpenApiExamples() });
}
