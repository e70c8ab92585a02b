import type { JsonSchema } from '../compile/field-types.ts';
import { listEnvelopeSchema, recordSchema } from '../compile/schemas.ts';
import type { Registry } from '../definition/registry.ts';
import type { Resource } from '../definition/resource.ts';
import { withCodeSamples } from './code-samples.ts';
import { familyPaths } from './family-paths.ts';
import { CHANGE_DELETE_SCHEMA, CHANGES_PARAMETER_COMPONENTS, changesPaths, changesSchemas } from './changes-paths.ts';
import { countsPaths, countsSchemas } from './counts-paths.ts';
import { shareParameters } from './shared-parameters.ts';
import { AREAS } from '../definition/normalize-resource.ts';
import type { Area } from '../definition/resource-definition.ts';
import { API_DESCRIPTION } from './openapi-description.ts';
import { EXAMPLE_BRAND, ERROR_BODY_SCHEMA, ERROR_RESPONSES, HEADERS, PARAMETERS, schemaRef } from './openapi-components.ts';
import { recordTypeName } from './record-type-name.ts';

/** The interface version the spec gives; the major version is in the path. 1.5: sorts, any of, ranges and counts (CONTRACT.md §8). */
export const API_VERSION = '1.5.0';
/** Record schema names, which the docs and the client generator share with the document. */
export { recordTypeName };

/** A record as the demo data has it, keyed by family path: the document quotes one per family. */
export type OpenApiExamples = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** The name of a family's bare record schema: its fields alone, as an include embeds it and the changes feed gives it. */
export const embeddedTypeName = (path: string): string => `${recordTypeName(path)}Embedded`;

/**
 * The record schema plus its optional includes, for responses. An include
 * embeds the bare record of its family (includes never nest), so the
 * schemas never refer to each other in a cycle: tools that resolve
 * references whole (a mock server, a code generator) can.
 */
function responseRecordSchema(resource: Resource, registry: Registry): JsonSchema {
  const schema = recordSchema(resource);
  const properties = { ...(schema.properties as JsonSchema) };
  for (const include of resource.includes) {
    const target = schemaRef(embeddedTypeName(registry.get(include.resource).path));
    const only = `Present only with \`include=${include.name}\`${include.description ? `: ${include.description}` : ''}.`;
    properties[include.name] = include.cardinality === 'one'
      ? { oneOf: [target, { type: 'null' }], description: only }
      : { type: 'array', items: target, description: only };
  }
  return { ...schema, properties };
}

/**
 * Builds the OpenAPI 3.1 document from the registry: every family's
 * operations, parameters and record schema, the shared error responses, and,
 * when given, one demo record per family as examples.
 */
export function buildOpenApi(registry: Registry, { basePath, examples = {} }: { basePath: string; examples?: OpenApiExamples }): JsonSchema {
  const schemas: JsonSchema = { Error: ERROR_BODY_SCHEMA, ChangeDelete: CHANGE_DELETE_SCHEMA };
  const paths: JsonSchema = {};
  const tags: JsonSchema[] = [];
  const included = new Set(registry.resources.flatMap((resource) => resource.includes.map((include) => include.resource)));
  for (const resource of registry.resources) {
    const example = examples[resource.path];
    Object.assign(schemas, familySchemas({ resource, registry, example, included: included.has(resource.path) }));
    tags.push({ name: resource.title, description: resource.description ?? resource.title });
    const operations = resource.scope === 'tenant'
      ? familyPaths(resource, example)
      : { ...familyPaths(resource, example), ...countsPaths(resource), ...changesPaths(resource) };
    const exampleId = typeof example?.id === 'string' ? example.id : undefined;
    Object.assign(paths, inArea(withCodeSamples(operations, { resource, basePath, exampleId }), resource.area));
  }
  const shared = shareParameters({ paths, components: { ...PARAMETERS, ...CHANGES_PARAMETER_COMPONENTS } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Brand Catalog and Logistics Read API',
      version: API_VERSION,
      description: API_DESCRIPTION,
    },
    servers: [{ url: basePath, description: 'This server.' }],
    security: [{ bearerAuth: [] }],
    tags,
    // The docs' sidebar lists the families area by area (CONTRACT.md §4); a renderer hides a tag in no group, and every family is in one.
    'x-tagGroups': AREAS.map((area) => ({
      name: areaName(area),
      tags: registry.resources.filter((resource) => resource.area === area).map((resource) => resource.title),
    })),
    paths: shared.paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, `Authorization: Bearer bcat_sk_...`, allowed for the brand in the path (or global). A key is `bcat_sk_` and 46 base62 characters, the last 6 a CRC-32 checksum of the rest (a mistyped key is refused at once). After too many failed authentications from one client, its requests without a valid key are answered 429 for the rest of the minute; a valid key is always served. Where to get a key: `npm start` on the demo prints one for the brand `northwind`; an operator creates others with `npm run keys -- create --brand <slug>` (see the keys guide, /api/public/v1/docs/keys).',
        },
      },
      parameters: shared.parameters,
      headers: HEADERS,
      responses: ERROR_RESPONSES,
      schemas,
    },
  };
}

/**
 * A family's schemas, by name: its record (with its includes), its bare
 * record where anything refers to it (its feed, an include of it; the
 * tenant family has no feed), its page, its counts and its changes.
 */
function familySchemas({ resource, registry, example, included }: {
  resource: Resource;
  registry: Registry;
  example: Readonly<Record<string, unknown>> | undefined;
  /** Whether some family includes this one. */
  included: boolean;
}): JsonSchema {
  const name = recordTypeName(resource.path);
  const schemas: JsonSchema = {
    [name]: {
      ...responseRecordSchema(resource, registry),
      title: resource.title,
      ...(resource.description ? { description: resource.description } : {}),
      ...(example === undefined ? {} : { examples: [example] }),
    },
  };
  if (resource.scope !== 'tenant' || included) {
    schemas[embeddedTypeName(resource.path)] = {
      ...recordSchema(resource),
      title: `${resource.title} (embedded)`,
      description: `A ${resource.title.toLowerCase()} record as an include embeds it and the changes feed gives it: its fields, without includes of its own.`,
    };
  }
  if (resource.scope === 'tenant') return schemas;
  return { ...schemas, [`${name}List`]: { ...listEnvelopeSchema(schemaRef(name)), title: `${resource.title} page` }, ...countsSchemas(resource), ...changesSchemas(resource) };
}

/** An area as the docs name it: `catalog` -> `Catalog`. */
export const areaName = (area: Area): string => area.charAt(0).toUpperCase() + area.slice(1);

/** Every operation of a family's paths with its area (`x-area`, CONTRACT.md §4). */
function inArea(paths: JsonSchema, area: Area): JsonSchema {
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => [
    path,
    Object.fromEntries(Object.entries(item as JsonSchema).map(([method, operation]) => [method, { ...(operation as JsonSchema), 'x-area': area }])),
  ]));
}

/** The brand the examples are for, so tools can fetch them. */
export { EXAMPLE_BRAND };
