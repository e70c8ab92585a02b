import type { JsonSchema } from './field-types.ts';
import { UUID_PATTERN } from './field-types.ts';
import { ERROR_CODES } from './errors.ts';
import { toCamelCase } from './naming.ts';
import type { Registry } from './registry.ts';
import type { Resource } from './resource.ts';
import { CURSOR_SCHEMA, ERROR_SCHEMA, INCLUDE_SCHEMA, LIMIT_SCHEMA, filterSchemas, listEnvelopeSchema, recordSchema } from './schema.ts';

/** The interface version the spec gives; the major version is in the path. */
export const API_VERSION = '1.3.0';
export const API_BASE_PATH = '/api/public/v1';

/** `units-of-measure` -> `UnitOfMeasure`, `dimension-curve-axes` -> `DimensionCurveAxis`: a record's schema name. */
export function recordTypeName(path: string): string {
  const words = path.split('-');
  // "units-of-measure": the plural is the word before "of".
  const pluralIndex = words.indexOf('of') > 0 ? words.indexOf('of') - 1 : words.length - 1;
  words[pluralIndex] = singular(words[pluralIndex]!);
  return pascalCase(words.join('-'));
}

function pascalCase(path: string): string {
  const camel = toCamelCase(path);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

function singular(word: string): string {
  if (word.endsWith('axes')) return `${word.slice(0, -4)}axis`;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string): JsonSchema => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/** Every status the spec lists, on every operation. */
const ERROR_RESPONSES: JsonSchema = {
  '400': errorResponse('Invalid parameter, unsupported include, or a cursor of other filters.'),
  '401': errorResponse('Missing, invalid, expired or out-of-scope API key.'),
  '404': errorResponse('Record not found or not available to the brand.'),
  '429': {
    ...errorResponse('Rate limit exceeded.'),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } },
  },
  '500': errorResponse('Unexpected server error.'),
};

const BRAND_PARAMETER = { name: 'brand', in: 'path', required: true, description: 'Brand slug authorized by the key.', schema: { type: 'string' } };
const ID_PARAMETER = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: UUID_PATTERN } };

function includeParameter(resource: Resource): JsonSchema[] {
  if (resource.includes.length === 0) return [];
  const names = resource.includes.map((include) => include.name);
  return [{ name: 'include', in: 'query', required: false, description: `${String(INCLUDE_SCHEMA.description)} One or more of: ${names.join(', ')}.`, schema: INCLUDE_SCHEMA }];
}

/** The record schema plus its optional includes, for responses. */
function responseRecordSchema(resource: Resource, registry: Registry): JsonSchema {
  const schema = recordSchema(resource);
  const properties = { ...(schema.properties as JsonSchema) };
  for (const include of resource.includes) {
    const target = ref(recordTypeName(registry.get(include.resource).path));
    properties[include.name] = include.cardinality === 'one'
      ? { oneOf: [target, { type: 'null' }], description: `Only with include=${include.name}.` }
      : { type: 'array', items: target, description: `Only with include=${include.name}.` };
  }
  return { ...schema, properties };
}

/** Builds the OpenAPI 3.1 document from the registry. */
export function buildOpenApi(registry: Registry): JsonSchema {
  const schemas: JsonSchema = { Error: ERROR_SCHEMA };
  const paths: JsonSchema = {};
  for (const resource of registry.resources) {
    const name = recordTypeName(resource.path);
    schemas[name] = { ...responseRecordSchema(resource, registry), title: resource.title };
    const ok = (schema: JsonSchema, headers?: JsonSchema): JsonSchema => ({
      description: 'OK',
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema } },
    });
    const operation = ({ operationId, summary, parameters, response }: { operationId: string; summary: string; parameters: JsonSchema[]; response: JsonSchema }): JsonSchema => ({
      get: { operationId, summary, tags: [resource.title], parameters, responses: { '200': response, ...ERROR_RESPONSES } },
    });
    if (resource.scope === 'tenant') {
      paths[`/${resource.path}/{brand}`] = operation({ operationId: `get${name}`, summary: 'Get the brand', parameters: [BRAND_PARAMETER], response: ok(ref(name)) });
      continue;
    }
    const filters = Object.entries(filterSchemas(resource)).map(([parameter, schema]) => ({
      name: parameter,
      in: 'query',
      required: false,
      description: schema.description,
      schema: { ...schema, description: undefined },
    }));
    paths[`/brands/{brand}/${resource.path}`] = operation({
      operationId: `list${pascalCase(resource.path)}`,
      summary: `List ${resource.title.toLowerCase()}`,
      parameters: [
        BRAND_PARAMETER,
        { name: 'cursor', in: 'query', required: false, description: CURSOR_SCHEMA.description, schema: CURSOR_SCHEMA },
        { name: 'limit', in: 'query', required: false, description: LIMIT_SCHEMA.description, schema: LIMIT_SCHEMA },
        ...includeParameter(resource),
        ...filters,
      ],
      response: ok(listEnvelopeSchema(ref(name)), {
        Link: { description: 'Origin-relative URL of the next page with rel="next"; absent on the last page.', schema: { type: 'string' } },
      }),
    });
    paths[`/brands/{brand}/${resource.path}/{id}`] = operation({
      operationId: `get${name}`,
      summary: `Get one ${name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`,
      parameters: [BRAND_PARAMETER, ID_PARAMETER, ...includeParameter(resource)],
      response: ok(ref(name)),
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Brand Catalog and Logistics Read API',
      version: API_VERSION,
      description: `Read-only access to one brand's catalog, sourcing, order, shipment, finance and document data. Error codes: ${Object.keys(ERROR_CODES).join(', ')}.`,
    },
    servers: [{ url: API_BASE_PATH }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key `<prefix>sk_<secret>`.' } },
      schemas,
    },
  };
}
