import type { JsonSchema } from '../compile/field-types.ts';
import { toCamelCase } from '../definition/naming.ts';
import { API_DESCRIPTION } from './openapi-description.ts';
import {
  CACHING_HEADERS, componentRef, ERROR_BODY_SCHEMA, ERROR_RESPONSES, EXAMPLE_BRAND, HEADERS, ID_PARAMETER, OPERATION_ERRORS, PARAMETERS,
  RATE_LIMIT_HEADERS, withoutDescription,
} from './openapi-components.ts';
import type { Registry } from '../definition/registry.ts';
import type { Resource } from '../definition/resource.ts';
import { INCLUDE_SCHEMA, filterSchemas, listEnvelopeSchema, recordSchema } from '../compile/schemas.ts';
import { FIELDS_SCHEMA } from '../request/sparse-fields.ts';

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

/** A record as the demo data has it, keyed by family path: the document quotes one per family. */
export type OpenApiExamples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const schemaRef = (name: string): JsonSchema => componentRef('schemas', name);

function includeParameter(resource: Resource): JsonSchema[] {
  if (resource.includes.length === 0) return [];
  const described = resource.includes.map((include) => `- \`${include.name}\`${include.description ? `: ${include.description}` : ''}`);
  return [{
    name: 'include',
    in: 'query',
    required: false,
    description: `${String(INCLUDE_SCHEMA.description)} One or more of:\n${described.join('\n')}`,
    schema: withoutDescription(INCLUDE_SCHEMA),
    example: resource.includes[0]!.name,
  }];
}

function fieldsParameter(resource: Resource): JsonSchema {
  return {
    name: 'fields',
    in: 'query',
    required: false,
    description: `${String(FIELDS_SCHEMA.description)} Without it every field is returned, as the record schema requires; with it, only those named. Fields: ${resource.recordFields.map((field) => `\`${field.name}\``).join(', ')}.`,
    schema: withoutDescription(FIELDS_SCHEMA),
    example: resource.recordFields.slice(0, 2).map((field) => field.name).join(','),
  };
}

/** The record schema plus its optional includes, for responses. */
function responseRecordSchema(resource: Resource, registry: Registry): JsonSchema {
  const schema = recordSchema(resource);
  const properties = { ...(schema.properties as JsonSchema) };
  for (const include of resource.includes) {
    const target = schemaRef(recordTypeName(registry.get(include.resource).path));
    const only = `Present only with \`include=${include.name}\`${include.description ? `: ${include.description}` : ''}.`;
    properties[include.name] = include.cardinality === 'one'
      ? { oneOf: [target, { type: 'null' }], description: only }
      : { type: 'array', items: target, description: only };
  }
  return { ...schema, properties };
}

function filterParameters(resource: Resource): JsonSchema[] {
  return Object.entries(filterSchemas(resource)).map(([parameter, schema]) => ({
    name: parameter,
    in: 'query',
    required: false,
    description: schema.description,
    schema: withoutDescription(schema),
  }));
}

/** A name for people: `ProductVersion` -> `product version`. */
function spoken(typeName: string): string {
  return typeName.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

const okResponse = ({ schema, example, headers = {} }: { schema: JsonSchema; example: unknown; headers?: JsonSchema }): JsonSchema => ({
  description: 'OK',
  headers: { 'X-Request-Id': componentRef('headers', 'RequestId'), ...CACHING_HEADERS, ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** The operations of one family, by path. */
function familyPaths(resource: Resource, example: Readonly<Record<string, unknown>> | undefined): JsonSchema {
  const name = recordTypeName(resource.path);
  const tags = [resource.title];
  const idParameter = { ...ID_PARAMETER, ...(typeof example?.id === 'string' ? { example: example.id } : {}) };
  if (resource.scope === 'tenant') {
    return {
      [`/${resource.path}/{brand}`]: {
        get: {
          operationId: `get${name}`,
          summary: `Get the ${spoken(name)}`,
          description: `The ${spoken(name)} named in the path, when the key is allowed for it.`,
          tags,
          parameters: [componentRef('parameters', 'Brand'), fieldsParameter(resource), componentRef('parameters', 'IfNoneMatch')],
          responses: { '200': okResponse({ schema: schemaRef(name), example }), ...OPERATION_ERRORS },
        },
      },
    };
  }
  const listName = `${name}List`;
  return {
    [`/brands/{brand}/${resource.path}`]: {
      get: {
        operationId: `list${pascalCase(resource.path)}`,
        summary: `List ${resource.title.toLowerCase()}`,
        description: `${resource.description ?? `${resource.title}.`} Pages are ordered by \`createdAt\`, then \`id\`; follow \`nextCursor\` (or the \`Link\` header) to the next page. Filters combine with AND.`,
        tags,
        parameters: [
          componentRef('parameters', 'Brand'),
          componentRef('parameters', 'Cursor'),
          componentRef('parameters', 'Limit'),
          ...includeParameter(resource),
          fieldsParameter(resource),
          ...filterParameters(resource),
          componentRef('parameters', 'IfNoneMatch'),
        ],
        responses: {
          '200': okResponse({
            schema: schemaRef(listName),
            example: example === undefined ? undefined : { items: [example], nextCursor: null, totalItems: 1 },
            headers: { Link: componentRef('headers', 'Link') },
          }),
          ...OPERATION_ERRORS,
        },
      },
    },
    [`/brands/{brand}/${resource.path}/{id}`]: {
      get: {
        operationId: `get${name}`,
        summary: `Get one ${spoken(name)}`,
        description: `One ${spoken(name)} by id. 404 when it does not exist or belongs to another brand.`,
        tags,
        parameters: [componentRef('parameters', 'Brand'), idParameter, ...includeParameter(resource), fieldsParameter(resource), componentRef('parameters', 'IfNoneMatch')],
        responses: { '200': okResponse({ schema: schemaRef(name), example }), ...OPERATION_ERRORS },
      },
    },
  };
}

/**
 * Builds the OpenAPI 3.1 document from the registry: every family's
 * operations, parameters and record schema, the shared error responses, and,
 * when given, one demo record per family as examples.
 */
export function buildOpenApi(registry: Registry, { examples = {} }: { examples?: OpenApiExamples } = {}): JsonSchema {
  const schemas: JsonSchema = { Error: ERROR_BODY_SCHEMA };
  const paths: JsonSchema = {};
  const tags: JsonSchema[] = [];
  for (const resource of registry.resources) {
    const name = recordTypeName(resource.path);
    const example = examples[resource.path];
    schemas[name] = {
      ...responseRecordSchema(resource, registry),
      title: resource.title,
      ...(resource.description ? { description: resource.description } : {}),
      ...(example === undefined ? {} : { examples: [example] }),
    };
    if (resource.scope !== 'tenant') schemas[`${name}List`] = { ...listEnvelopeSchema(schemaRef(name)), title: `${resource.title} page` };
    tags.push({ name: resource.title, description: resource.description ?? resource.title });
    Object.assign(paths, familyPaths(resource, example));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Brand Catalog and Logistics Read API',
      version: API_VERSION,
      description: API_DESCRIPTION,
    },
    servers: [{ url: API_BASE_PATH, description: 'This server.' }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, `Authorization: Bearer bcat_sk_...`, allowed for the brand in the path (or global). A key is `bcat_sk_` and 46 base62 characters, the last 6 a CRC-32 checksum of the rest (a mistyped key is refused at once). Too many failed authentications from one client are answered 429 for the rest of the minute.',
        },
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: ERROR_RESPONSES,
      schemas,
    },
  };
}

/** The brand the examples are for, so tools can fetch them. */
export { EXAMPLE_BRAND };
