import type { JsonSchema } from '../compile/field-types.ts';
import { CHANGES_QUERY_SCHEMA } from '../compile/schemas.ts';
import { UUID_PATTERN } from '../compile/field-types.ts';
import type { Resource } from '../definition/resource.ts';
import { fieldsParameter, okResponse } from './family-paths.ts';
import { componentRef, OPERATION_ERRORS, schemaRef } from './openapi-components.ts';
import { optionalParameter } from './optional-parameter.ts';
import { pascalCase, recordTypeName } from './record-type-name.ts';

/**
 * The changes feed of a family in the OpenAPI document (CONTRACT.md §6): its
 * operation, its page and item schemas, and the delete item every family shares.
 */

const CHANGES_PARAMETERS = CHANGES_QUERY_SCHEMA.properties as Record<string, JsonSchema>;

const queryParameter = (name: string): JsonSchema => optionalParameter({ name, schema: CHANGES_PARAMETERS[name]! });

/** The feed's own parameters, the same on every family: `components/parameters`. */
export const CHANGES_PARAMETER_COMPONENTS: JsonSchema = {
  SyncToken: queryParameter('syncToken'),
  ChangesCursor: queryParameter('cursor'),
  ChangesLimit: queryParameter('limit'),
  Wait: queryParameter('wait'),
};

/** The delete item, the same for every family. */
export const CHANGE_DELETE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  title: 'Deleted record',
  description: 'The record was deleted (or moved to another brand): remove it from the copy.',
  required: ['change', 'id', 'record'],
  properties: { change: { const: 'delete' }, id: { type: 'string', pattern: UUID_PATTERN }, record: { type: 'null' } },
};

/** The schemas a family's feed adds, by name: its upsert item, its item and its page. */
export function changesSchemas(resource: Resource): JsonSchema {
  const name = recordTypeName(resource.path);
  return {
    [`${name}Change`]: {
      title: `${resource.title} change`,
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          description: 'The record was inserted or updated (a soft delete included): store it, replacing any copy with this id.',
          required: ['change', 'id', 'record'],
          properties: { change: { const: 'upsert' }, id: { type: 'string', pattern: UUID_PATTERN }, record: schemaRef(`${name}Embedded`) },
        },
        schemaRef('ChangeDelete'),
      ],
    },
    [`${name}Changes`]: {
      type: 'object',
      additionalProperties: false,
      title: `${resource.title} changes page`,
      required: ['items', 'nextCursor', 'syncToken'],
      properties: {
        items: { type: 'array', items: schemaRef(`${name}Change`) },
        nextCursor: { type: ['string', 'null'], description: 'The next page of this batch, or null on its last page.' },
        syncToken: { type: ['string', 'null'], description: 'On the last page of a batch: pass it as `syncToken` to the next call. Null while `nextCursor` is not.' },
      },
    },
  };
}

export function changesPaths(resource: Resource): JsonSchema {
  const name = recordTypeName(resource.path);
  return {
    [`/brands/{brand}/${resource.path}/changes`]: {
      get: {
        operationId: `list${pascalCase(resource.path)}Changes`,
        summary: `Changes of ${resource.title.toLowerCase()}`,
        description: 'Incremental sync that never misses a change. Without `syncToken`, a full sync: every current record as an upsert. '
          + 'With the `syncToken` of the last page of an earlier batch: what was inserted, updated or deleted since, each record at most once per batch '
          + '(and possibly again in a later one: apply items in order, the last for an id wins). Follow `nextCursor` (or `Link`) to the end of the batch. '
          + 'A token older than the retention period, or older than a `TRUNCATE` of the family\'s rows, is 410 `sync_token_expired`: start again without one. '
          + 'With `wait` (seconds, only with `syncToken` and without `cursor`), an empty batch is held until a change to this family of this brand commits '
          + '(then the batch holds it, within about a second of the commit) or the time passes (then the empty batch and a token, at the end of that second: up to a second after `wait` seconds, never before): a copy that follows the database live. '
          + 'A key may hold a few waiting requests per instance at once (the README says how many); past it, 429 with `Retry-After`.',
        tags: [resource.title],
        parameters: [
          componentRef('parameters', 'Brand'),
          componentRef('parameters', 'SyncToken'),
          componentRef('parameters', 'ChangesCursor'),
          componentRef('parameters', 'ChangesLimit'),
          componentRef('parameters', 'Wait'),
          fieldsParameter(resource),
          componentRef('parameters', 'IfNoneMatch'),
        ],
        responses: {
          '200': okResponse({ schema: schemaRef(`${name}Changes`), example: undefined, headers: { Link: componentRef('headers', 'Link') } }),
          ...OPERATION_ERRORS,
          '410': componentRef('responses', 'Gone'),
        },
      },
    },
  };
}
