import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../../src/engine/request/api-error.ts';
import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import { API_VERSION, recordTypeName } from '../../src/engine/openapi/build-openapi.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { fieldSchema, filterSchemas } from '../../src/engine/compile/schemas.ts';
import { listSorts } from '../../src/engine/compile/list-sorts.ts';
import { RANGE_BOUNDS } from '../../src/engine/definition/range-filters.ts';
import type { GeneratedFile } from './generated-files.ts';

/**
 * The text of `client/src/families.generated.ts`: the client's types and its
 * runtime table, derived from the registry. Value types come from the same
 * JSON Schemas the server validates and documents with (`schema.ts`), so a
 * record or filter type cannot say something the server does not.
 */

export const CLIENT_GENERATE_COMMAND = 'npm run client:generate';

/** Where the generated file lives, absolute: commands and tests may run from any folder. */
export const CLIENT_FAMILIES_PATH = fileURLToPath(new URL('../../client/src/families.generated.ts', import.meta.url));

/** JSON Schema `type` -> TypeScript. An unknown type stops generation rather than guessing. */
const TS_TYPES: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
};

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string): string => (IDENTIFIER.test(name) ? name : quote(name));
const comment = (text: string | null | undefined, indent: string): string =>
  text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';

/** The TypeScript type of a value that a JSON Schema admits; `{}` (any JSON) is `JsonValue`. */
export function schemaType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => (value === null ? 'null' : quote(String(value)))).join(' | ');
  if (schema.type === undefined) return 'JsonValue';
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return types
    .map((type) => {
      const ts = TS_TYPES[type];
      if (!ts) throw new Error(`generate-client: no TypeScript type for JSON Schema type '${type}'`);
      return ts;
    })
    .join(' | ');
}

/** Byte order, not locale order, so the file is the same on every machine. */
const byPath = (a: Resource, b: Resource): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function renderFamilyTypes(resource: Resource, registry: Registry): string {
  const name = recordTypeName(resource.path);
  const lines: string[] = [];
  lines.push(comment(`${resource.title}${resource.description ? `: ${resource.description}` : ''}`, ''));
  lines.push(`export interface ${name} {\n`);
  for (const field of resource.recordFields) {
    lines.push(comment(field.description, '  '), `  ${key(field.name)}: ${schemaType(fieldSchema(field))};\n`);
  }
  for (const include of resource.includes) {
    const target = recordTypeName(registry.get(include.resource).path);
    const type = include.cardinality === 'one' ? `${target} | null` : `${target}[]`;
    lines.push(comment(`Only with include=${include.name}.${include.description ? ` ${include.description}` : ''}`, '  '));
    lines.push(`  ${key(include.name)}?: ${type};\n`);
  }
  lines.push('}\n\n');

  const filters = filterTypes(resource);
  if (filters.length === 0) {
    lines.push(`/** The ${resource.path} family has no filters. */\nexport type ${name}Filters = Record<string, never>;\n\n`);
  } else {
    lines.push(`export interface ${name}Filters {\n`);
    for (const { name: filter, type, description } of filters) lines.push(comment(description, '  '), `  ${key(filter)}?: ${type};\n`);
    lines.push('}\n\n');
  }

  const includes = resource.includes.map((include) => quote(include.name));
  lines.push(`export type ${name}Include = ${includes.length > 0 ? includes.join(' | ') : 'never'};\n\n`);
  const sorts = [...listSorts(resource).keys()].map(quote);
  lines.push(`/** The values \`sort\` takes: a field, or \`-\` and a field for descending. */\nexport type ${name}Sort = ${sorts.length > 0 ? sorts.join(' | ') : 'never'};\n\n`);
  const countable = resource.countable.map((field) => quote(field.name));
  lines.push(`/** The fields \`counts()\` counts by. */\nexport type ${name}Countable = ${countable.length > 0 ? countable.join(' | ') : 'never'};\n\n`);
  return lines.join('');
}

/**
 * Each filter of a family as the client takes it: one value or, for one
 * that takes several (`status=a&status=b`), an array of them; the four
 * bounds of a range field as one object, `{ createdAt: { gte, lt } }`,
 * which the client writes `createdAt[gte]=...&createdAt[lt]=...`.
 */
function filterTypes(resource: Resource): { name: string; type: string; description: string | undefined }[] {
  const out: { name: string; type: string; description: string | undefined }[] = [];
  const bounds = new Set(resource.ranges.flatMap((field) => RANGE_BOUNDS.map((bound) => `${field.name}[${bound}]`)));
  for (const [filter, schema] of Object.entries(filterSchemas(resource))) {
    if (bounds.has(filter)) continue;
    const one = schema.type === 'array' ? schemaType(schema.items as JsonSchema) : schemaType(schema);
    const type = schema.type === 'array' ? `${one} | readonly ${one.includes('|') ? `(${one})` : one}[]` : one;
    out.push({ name: filter, type, description: schema.description as string | undefined });
  }
  for (const field of resource.ranges) {
    const value = schemaType(filterSchemas(resource)[`${field.name}[gte]`]!);
    const taken = out.find((entry) => entry.name === field.name);
    const range = `{ ${RANGE_BOUNDS.map((bound) => `readonly ${bound}?: ${value}`).join('; ')} }`;
    const time = field.type === 'date' || field.type === 'timestamp';
    const words = time ? ['at or after', 'after', 'at or before', 'before'] : ['at least', 'greater than', 'at most', 'less than'];
    const description = `A range of \`${field.name}\`, any of its bounds: ${RANGE_BOUNDS.map((bound, i) => `\`${bound}\` (${words[i]})`).join(', ')}.`;
    if (taken) taken.type = `${taken.type} | ${range}`;
    else out.push({ name: field.name, type: range, description });
  }
  return out;
}

function renderFamilyInfo(resource: Resource): string {
  const list = (names: readonly string[]): string => `[${names.map(quote).join(', ')}]`;
  return [
    `  ${quote(resource.path)}: {\n`,
    `    path: ${quote(resource.path)},\n`,
    `    tenant: ${resource.scope === 'tenant'},\n`,
    `    fields: ${list(resource.recordFields.map((field) => field.name))},\n`,
    `    filters: ${list(resource.filters.map((filter) => filter.name))},\n`,
    `    includes: ${list(resource.includes.map((include) => include.name))},\n`,
    '  },\n',
  ].join('');
}

/** The whole generated file. */
export function renderClientFamilies(registry: Registry): string {
  const resources = [...registry.resources].sort(byPath);
  const tenants = resources.filter((resource) => resource.scope === 'tenant').map((resource) => quote(resource.path));
  const out: string[] = [
    `// Generated by \`${CLIENT_GENERATE_COMMAND}\` (tools/generate-client.ts) from resources/*.ts. Do not edit:\n`,
    '// change a definition and run the command again. `npm run client:generate -- --check` fails when this file is stale.\n\n',
    "import type { FamilyInfo } from './family-info.ts';\n\n",
    `/** The version of the interface this client was generated from. */\nexport const API_VERSION = ${quote(API_VERSION)};\n\n`,
    `/** The path prefix of every route. */\nexport const API_BASE_PATH = ${quote(API_BASE_PATH)};\n\n`,
    `/** The \`errorCode\` values of the contract's error body. */\nexport type ErrorCode =\n${Object.keys(ERROR_CODES).map((code) => `  | ${quote(code)}`).join('\n')};\n\n`,
    `export const ERROR_CODES: readonly ErrorCode[] = [\n${Object.keys(ERROR_CODES).map((code) => `  ${quote(code)},\n`).join('')}];\n\n`,
    '/** A `json` field holds whatever JSON the writer stored. */\n',
    'export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };\n\n',
  ];
  for (const resource of resources) out.push(renderFamilyTypes(resource, registry));

  out.push('/** Every family by path: its record, its filters, the names it may include, the orders it takes and the fields it counts by. */\nexport interface Families {\n');
  for (const resource of resources) {
    const name = recordTypeName(resource.path);
    out.push(`  ${quote(resource.path)}: { record: ${name}; filters: ${name}Filters; include: ${name}Include; sort: ${name}Sort; countable: ${name}Countable };\n`);
  }
  out.push('}\n\n');
  out.push('export type FamilyPath = keyof Families;\n\n');
  out.push(`/** The family whose one record is the brand of the path (\`GET /brands/{brand}\`); it has no list. */\nexport type TenantPath = ${tenants.join(' | ')};\n\n`);
  out.push('/** The families with a list route and a single-record route. */\nexport type CollectionPath = Exclude<FamilyPath, TenantPath>;\n\n');
  out.push('/** What the client and the export command need to know of each family at run time. */\n');
  out.push('export const FAMILIES: Readonly<Record<FamilyPath, FamilyInfo>> = {\n');
  for (const resource of resources) out.push(renderFamilyInfo(resource));
  out.push('};\n');
  return out.join('');
}

/** The generated file, ready for `syncGeneratedFiles`. */
export function clientFamiliesFile(registry: Registry): GeneratedFile {
  return { path: CLIENT_FAMILIES_PATH, content: renderClientFamilies(registry) };
}
