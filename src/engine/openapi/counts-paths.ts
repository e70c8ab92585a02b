import type { JsonSchema } from '../compile/field-types.ts';
import { bySchema, countsBodySchema, MAX_COUNTED_VALUES } from '../compile/counts-schemas.ts';
import type { Resource } from '../definition/resource.ts';
import { filterParameters, okResponse } from './family-paths.ts';
import { componentRef, OPERATION_ERRORS, schemaRef } from './openapi-components.ts';
import { pascalCase, recordTypeName } from './record-type-name.ts';
import { withoutDescription } from './optional-parameter.ts';

/**
 * The counts route of a family in the OpenAPI document (CONTRACT.md §8):
 * `GET /brands/{brand}/<path>/counts?by=<field>` with the list's filters,
 * and its body's schema. A family with nothing countable has neither.
 */

/** The schemas a family's counts add, by name: its body. */
export function countsSchemas(resource: Resource): JsonSchema {
  if (resource.countable.length === 0) return {};
  return { [`${recordTypeName(resource.path)}Counts`]: { ...countsBodySchema(resource), title: `${resource.title} counts` } };
}

export function countsPaths(resource: Resource): JsonSchema {
  if (resource.countable.length === 0) return {};
  const by = resource.countable[0]!.name;
  return {
    [`/brands/{brand}/${resource.path}/counts`]: {
      get: {
        operationId: `count${pascalCase(resource.path)}`,
        summary: `Count ${resource.title.toLowerCase()} by value`,
        description: `How many of the matching records have each value of \`by\` (${resource.countable.map((field) => `\`${field.name}\``).join(', ')}), `
          + `with the list's filters (any of and ranges included). The ${MAX_COUNTED_VALUES} largest counts come first, equal counts by value ascending and null last; `
          + '`otherItems` counts the matching records of the values past them, and `totalItems` every matching record, exact as of the request, as on a first page.',
        tags: [resource.title],
        parameters: [
          componentRef('parameters', 'Brand'),
          { name: 'by', in: 'query', required: true, description: String(bySchema(resource).description), schema: withoutDescription(bySchema(resource)), example: by },
          ...filterParameters(resource),
          componentRef('parameters', 'IfNoneMatch'),
        ],
        responses: {
          '200': okResponse({ schema: schemaRef(`${recordTypeName(resource.path)}Counts`), example: undefined }),
          ...OPERATION_ERRORS,
        },
      },
    },
  };
}
