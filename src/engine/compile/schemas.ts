import { FIELD_TYPES, type JsonSchema } from './field-types.ts';
import { MATCH_KINDS, MAX_ANY_OF_VALUES } from './match-kinds.ts';
import type { Field, Resource } from '../definition/resource.ts';
import { DEFAULT_SORT, listSorts } from './list-sorts.ts';

/**
 * JSON Schemas derived from a family: the record, the list and get query
 * parameters, the list envelope and the error body. AJV compiles them at boot;
 * the OpenAPI document copies them. One source, so validation and docs agree.
 */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export const LIMIT_SCHEMA: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: `Page size, 1 to ${MAX_LIMIT}.`,
};

/** Only a string: whatever does not decode is 400 `invalid_cursor` (CONTRACT.md §4), decided by the codec. */
export const CURSOR_SCHEMA: JsonSchema = {
  type: 'string',
  description: 'Opaque value from `nextCursor` of the previous page, valid for the same brand, collection and filters.',
};

export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1000;
/** The longest `wait` of a changes call, in seconds (CONTRACT.md §7). */
export const MAX_WAIT_SECONDS = 60;

/** The changes feed's parameters other than `fields` (CONTRACT.md §6): no filter, no include. */
export const CHANGES_QUERY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    syncToken: {
      type: 'string',
      description: 'Opaque value from `syncToken` of the last page of an earlier batch: the batch returns what changed since. Without it, a full sync.',
    },
    cursor: { type: 'string', description: 'Opaque value from `nextCursor` of the previous page of this batch.' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CHANGES_LIMIT,
      default: DEFAULT_CHANGES_LIMIT,
      description: `Page size, 1 to ${MAX_CHANGES_LIMIT}.`,
    },
    wait: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      default: 0,
      description: `Seconds, 0 to ${MAX_WAIT_SECONDS}, to hold an empty batch until a change to this family of this brand commits (then the batch holds it) or the time passes (then the empty batch and a token, at the end of that second: up to a second after \`wait\` seconds, never before). Only with \`syncToken\` and without \`cursor\`.`,
    },
  },
};

export const INCLUDE_SCHEMA: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  description: 'Comma-separated related resources to embed in each record.',
};

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'errorCode'],
  properties: {
    error: { type: 'string' },
    errorCode: { type: 'string' },
    details: {},
  },
};

/** The JSON Schema of one field's value in a record. */
export function fieldSchema(field: Field): JsonSchema {
  const base: JsonSchema = { ...FIELD_TYPES[field.type].valueSchema };
  if (field.values) base.enum = field.nullable ? [...field.values, null] : [...field.values];
  if (field.nullable && typeof base.type === 'string') base.type = [base.type, 'null'];
  if (field.description) base.description = field.description;
  return base;
}

/** The record: exactly the declared fields, every one present (CONTRACT.md §2). */
export function recordSchema(resource: Resource): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: resource.recordFields.map((field) => field.name),
    properties: Object.fromEntries(resource.recordFields.map((field) => [field.name, fieldSchema(field)])),
  };
}

/**
 * The filter parameters of a list, by name. A filter that takes several
 * values (`MatchImpl.anyOf`) is an array of them: the request parser makes
 * a parameter given once a list of one before checking it, and the OpenAPI
 * document writes it as a repeated parameter (`style: form`, `explode: true`).
 */
export function filterSchemas(resource: Resource): Record<string, JsonSchema> {
  return Object.fromEntries(
    resource.filters.map((filter) => {
      const kind = MATCH_KINDS[filter.match];
      const value = kind.parameterSchema(filter.targets);
      const description = filter.description ?? kind.describe(filter.targets);
      return [filter.name, kind.anyOf ? { type: 'array', items: value, minItems: 1, maxItems: MAX_ANY_OF_VALUES, description } : { ...value, description }];
    }),
  );
}

/** The `sort` parameter of a family's list: each field it sorts by, ascending or, with a leading `-`, descending. */
export function sortSchema(resource: Resource): JsonSchema {
  return {
    type: 'string',
    enum: [...listSorts(resource).keys()],
    description: 'Order of the list: a field, ascending, or with a leading `-`, descending; records with the same value follow in `createdAt`, then `id` order, in the same direction. '
      + `A null comes after every value ascending and before every value descending. Without it, \`${DEFAULT_SORT}\`.`,
  };
}

/**
 * The list's query parameters other than `include`, which the request parser
 * reads itself so that a family without includes can answer 400
 * `unsupported_include` rather than "unknown parameter".
 */
export function listQuerySchema(resource: Resource): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    // The tenant family has no list, and nothing to sort.
    properties: { cursor: CURSOR_SCHEMA, limit: LIMIT_SCHEMA, ...(resource.sorts.length > 0 ? { sort: sortSchema(resource) } : {}), ...filterSchemas(resource) },
  };
}

/** The list body: exactly `{ items, nextCursor, totalItems }`. */
export function listEnvelopeSchema(itemSchema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['items', 'nextCursor', 'totalItems'],
    properties: {
      items: { type: 'array', items: itemSchema },
      nextCursor: { type: ['string', 'null'] },
      totalItems: { type: 'integer', minimum: 0 },
    },
  };
}
