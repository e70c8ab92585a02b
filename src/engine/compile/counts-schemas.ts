import type { JsonSchema } from './field-types.ts';
import type { Resource } from '../definition/resource.ts';
import { fieldSchema, filterSchemas } from './schemas.ts';

/**
 * The schemas of a family's counts by value (CONTRACT.md §8): its query
 * parameters and its body. AJV compiles the first at boot; the OpenAPI
 * document copies both.
 */

/** The `by` parameter of a family's counts: one of the fields it declares countable. */
export function bySchema(resource: Resource): JsonSchema {
  return {
    type: 'string',
    enum: resource.countable.map((field) => field.name),
    description: 'The field whose values are counted.',
  };
}

/**
 * The counts' query parameters (CONTRACT.md §8): `by`, and the list's
 * filters, any of and ranges included; none of `cursor`, `limit`, `sort`,
 * `include` or `fields`. A family with nothing countable takes them too,
 * so that its 400 names every offending parameter; its route refuses any
 * `by` (family-routes.ts), and the OpenAPI document shows no counts for it.
 */
export function countsQuerySchema(resource: Resource): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['by'],
    properties: { by: resource.countable.length > 0 ? bySchema(resource) : { type: 'string' }, ...filterSchemas(resource) },
  };
}

/** The most values a counts body lists; the rest are summed in `otherItems` (CONTRACT.md §8). */
export const MAX_COUNTED_VALUES = 1000;

/** The counts body: exactly `{ by, counts, otherItems, totalItems }`, each value written as the record writes it. */
export function countsBodySchema(resource: Resource): JsonSchema {
  // A value is written as the record writes its field: the schemas of the countable fields, each once.
  const values = uniqueSchemas(resource.countable.map((field) => {
    const { description: _description, ...schema } = fieldSchema(field);
    return schema;
  }));
  const valueDescription = 'A value of the field, as a record writes it; null for the records without one.';
  return {
    type: 'object',
    additionalProperties: false,
    required: ['by', 'counts', 'otherItems', 'totalItems'],
    properties: {
      by: { type: 'string', enum: resource.countable.map((field) => field.name), description: 'The field counted by.' },
      counts: {
        type: 'array',
        maxItems: MAX_COUNTED_VALUES,
        description: `At most ${MAX_COUNTED_VALUES} values, the largest counts first, equal counts by value ascending (null last); values no matching record has are left out.`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['value', 'count'],
          properties: {
            value: values.length === 1 ? { ...values[0], description: valueDescription } : { anyOf: values, description: valueDescription },
            count: { type: 'integer', minimum: 1 },
          },
        },
      },
      otherItems: { type: 'integer', minimum: 0, description: `The matching records whose values are past the first ${MAX_COUNTED_VALUES}.` },
      totalItems: { type: 'integer', minimum: 0, description: 'Every matching record, exact as of the request.' },
    },
  };
}

/** Schemas without repeats, in order. */
function uniqueSchemas(schemas: JsonSchema[]): JsonSchema[] {
  const seen = new Set<string>();
  return schemas.filter((schema) => {
    const text = JSON.stringify(schema);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}
