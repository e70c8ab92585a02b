import type { JsonSchema } from '../compile/field-types.ts';
import { INCLUDE_SCHEMA, filterSchemas, sortSchema } from '../compile/schemas.ts';
import type { Resource } from '../definition/resource.ts';
import { FIELDS_SCHEMA } from '../request/sparse-fields.ts';
import { CACHING_HEADERS, componentRef, ID_PARAMETER, OPERATION_ERRORS, RATE_LIMIT_HEADERS, schemaRef } from './openapi-components.ts';
import { optionalParameter } from './optional-parameter.ts';
import { pascalCase, recordTypeName } from './record-type-name.ts';

/** A family and the demo record the document quotes for it, if any. */
interface FamilyArgs {
  readonly resource: Resource;
  readonly example: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The operations of one family, by path: a list and a get by id, or for the
 * tenant family, a get of the brand in the path.
 */
export function familyPaths(resource: Resource, example: Readonly<Record<string, unknown>> | undefined): JsonSchema {
  if (resource.scope === 'tenant') return tenantPaths({ resource, example });
  return { ...listPaths({ resource, example }), ...getPaths({ resource, example }) };
}

function tenantPaths({ resource, example }: FamilyArgs): JsonSchema {
  const name = recordTypeName(resource.path);
  return {
    [`/${resource.path}/{brand}`]: {
      get: {
        operationId: `get${name}`,
        summary: `Get the ${spoken(name)}`,
        description: `The ${spoken(name)} named in the path, when the key is allowed for it.`,
        tags: [resource.title],
        parameters: [componentRef('parameters', 'Brand'), fieldsParameter(resource), componentRef('parameters', 'IfNoneMatch')],
        responses: { '200': okResponse({ schema: schemaRef(name), example }), ...OPERATION_ERRORS },
      },
    },
  };
}

function listPaths({ resource, example }: FamilyArgs): JsonSchema {
  return {
    [`/brands/{brand}/${resource.path}`]: {
      get: {
        operationId: `list${pascalCase(resource.path)}`,
        summary: `List ${resource.title.toLowerCase()}`,
        description: `${resource.description ?? `${resource.title}.`} Pages are ordered by \`createdAt\`, then \`id\` (or as \`sort\` asks); follow \`nextCursor\` (or the \`Link\` header) to the next page. Filters combine with AND.`,
        tags: [resource.title],
        parameters: [
          componentRef('parameters', 'Brand'),
          componentRef('parameters', 'Cursor'),
          componentRef('parameters', 'Limit'),
          optionalParameter({ name: 'sort', schema: sortSchema(resource) }),
          ...includeParameter(resource),
          fieldsParameter(resource),
          ...filterParameters(resource),
          componentRef('parameters', 'IfNoneMatch'),
        ],
        responses: {
          '200': okResponse({
            schema: schemaRef(`${recordTypeName(resource.path)}List`),
            example: example === undefined ? undefined : { items: [example], nextCursor: null, totalItems: 1 },
            headers: { Link: componentRef('headers', 'Link') },
          }),
          ...OPERATION_ERRORS,
        },
      },
    },
  };
}

function getPaths({ resource, example }: FamilyArgs): JsonSchema {
  const name = recordTypeName(resource.path);
  const idParameter = { ...ID_PARAMETER, ...(typeof example?.id === 'string' ? { example: example.id } : {}) };
  return {
    [`/brands/{brand}/${resource.path}/{id}`]: {
      get: {
        operationId: `get${name}`,
        summary: `Get one ${spoken(name)}`,
        description: `One ${spoken(name)} by id. 404 when it does not exist or belongs to another brand.`,
        tags: [resource.title],
        parameters: [componentRef('parameters', 'Brand'), idParameter, ...includeParameter(resource), fieldsParameter(resource), componentRef('parameters', 'IfNoneMatch')],
        responses: { '200': okResponse({ schema: schemaRef(name), example }), ...OPERATION_ERRORS },
      },
    },
  };
}

/** A name for people: `ProductVersion` -> `product version`. */
function spoken(typeName: string): string {
  return typeName.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export const okResponse = ({ schema, example, headers = {} }: { schema: JsonSchema; example: unknown; headers?: JsonSchema }): JsonSchema => ({
  description: 'OK',
  headers: { 'X-Request-Id': componentRef('headers', 'RequestId'), ...CACHING_HEADERS, ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

function includeParameter(resource: Resource): JsonSchema[] {
  if (resource.includes.length === 0) return [];
  const described = resource.includes.map((include) => `- \`${include.name}\`${include.description ? `: ${include.description}` : ''}`);
  const first = resource.includes[0]!.name;
  return [optionalParameter({
    name: 'include',
    schema: INCLUDE_SCHEMA,
    description: `${String(INCLUDE_SCHEMA.description)} One or more of:\n${described.join('\n')}`,
    example: { name: 'one', summary: `Embed ${first}`, value: first },
  })];
}

export function fieldsParameter(resource: Resource): JsonSchema {
  const two = resource.recordFields.slice(0, 2).map((field) => field.name).join(',');
  return optionalParameter({
    name: 'fields',
    schema: FIELDS_SCHEMA,
    description: `${String(FIELDS_SCHEMA.description)} Without it every field is returned, as the record schema requires; with it, only those named. Fields: ${resource.recordFields.map((field) => `\`${field.name}\``).join(', ')}.`,
    example: { name: 'some', summary: `Only ${two}`, value: two },
  });
}

/**
 * The filters, each an optional query parameter; one that takes several
 * values is a repeated parameter (`status=a&status=b`: `style: form`,
 * `explode: true`). Parameters that several operations share are moved
 * under `components` when the document is built (shared-parameters.ts).
 */
export function filterParameters(resource: Resource): JsonSchema[] {
  return Object.entries(filterSchemas(resource)).map(([name, schema]) => {
    const parameter = optionalParameter({ name, schema });
    return schema.type === 'array' ? { ...parameter, style: 'form', explode: true } : parameter;
  });
}
