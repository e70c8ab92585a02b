import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { listSorts } from '../../src/engine/compile/list-sorts.ts';
import { acceptsParameter } from '../support/record-factory.ts';

/**
 * What a route must answer a query with, worked out from the contract alone
 * (CONTRACT.md §3, §6 and §8, README "Strict parameters"): 400
 * `invalid_parameter` naming each undeclared or repeated parameter and each
 * value out of its rule (a list takes `limit`, `cursor`, `sort` and its
 * filters, ranges included, a single record none of them, both take
 * `include` and `fields`; the changes feed takes `syncToken`, `cursor`,
 * `limit` and `fields`; counts take `by`, required, and the list's filters,
 * nothing else); an exact filter may be given up to `MAX_ANY_OF_VALUES`
 * times, each value in its rule; else 400 `unsupported_include` for an
 * include the family does not declare (any include, the empty one too, on
 * a family that declares none); else 400 `invalid_cursor` for a cursor or
 * sync token (no random text is a signed one); else 200 (or, for a single
 * record, 200 or 404).
 */
export type QueryOutcome =
  | { readonly status: 200 }
  | { readonly status: 400; readonly errorCode: 'invalid_parameter'; readonly parameters: readonly string[] }
  | { readonly status: 400; readonly errorCode: 'unsupported_include' | 'invalid_cursor' };

export type RouteKind = 'list' | 'get' | 'changes' | 'counts';

/** The most values an exact filter takes (CONTRACT.md §8), written here from the contract, not imported from the engine. */
export const MAX_ANY_OF = 100;

const LIMITS: Readonly<Record<RouteKind, RegExp | null>> = {
  list: /^([1-9][0-9]?|100)$/,
  changes: /^([1-9][0-9]{0,2}|1000)$/,
  get: null,
  counts: null,
};
const MAX_INCLUDE_LENGTH = 1024;
const MAX_FIELDS_LENGTH = 2048;

/**
 * The rule of one value of a filter parameter: the schema itself, or, for a
 * filter that takes several values (an array of them), the schema of each.
 */
export function oneValueSchema(schema: JsonSchema): JsonSchema {
  return schema.type === 'array' ? (schema.items as JsonSchema) : schema;
}

/** Whether a filter parameter takes several values (an exact filter: CONTRACT.md §8). */
export const takesSeveral = (schema: JsonSchema): boolean => schema.type === 'array';

/** The `sort` values a family's list takes: each sortable field, ascending and with a leading `-` descending. */
export const sortValues = (resource: Resource): readonly string[] => [...listSorts(resource).keys()];

/** Whether one parameter, given with these values, is out of its rule on this route; 'token' when it is a cursor or token to decode. */
function offends({ resource, route, name, values }: { resource: Resource; route: RouteKind; name: string; values: readonly string[] }): boolean | 'token' {
  const schemas = route === 'list' || route === 'counts' ? filterSchemas(resource) : {};
  if (Object.hasOwn(schemas, name)) {
    const schema = schemas[name] as JsonSchema;
    if (values.length > 1 && !(takesSeveral(schema) && values.length <= MAX_ANY_OF)) return true;
    return values.some((value) => !acceptsParameter(oneValueSchema(schema), value));
  }
  if (values.length > 1) return true;
  const value = values[0]!;
  if (route === 'counts') {
    // Counts take `by` and the filters; no cursor, limit, sort, include or fields.
    return name !== 'by' || !resource.countable.some((field) => field.name === value);
  }
  if (name === 'include') {
    if (route === 'changes') return true;
    // A family without includes refuses any include as unsupported, whatever its length.
    return resource.includes.length > 0 && (value.length < 1 || value.length > MAX_INCLUDE_LENGTH);
  }
  if (name === 'fields') {
    const names = new Set(resource.recordFields.map((field) => field.name));
    return value.length > MAX_FIELDS_LENGTH || value.split(',').some((field) => !names.has(field.trim()));
  }
  if ((name === 'cursor' && route !== 'get') || (name === 'syncToken' && route === 'changes')) return 'token';
  const limit = LIMITS[route];
  if (name === 'limit' && limit) return !limit.test(value);
  if (name === 'sort' && route === 'list') return !sortValues(resource).includes(value);
  return true;
}

export function expectedQueryOutcome({ resource, query, route }: { resource: Resource; query: URLSearchParams; route: RouteKind }): QueryOutcome {
  const offending: string[] = [];
  let token = false;
  for (const name of new Set(query.keys())) {
    const verdict = offends({ resource, route, name, values: query.getAll(name) });
    if (verdict === 'token') token = true;
    else if (verdict) offending.push(name);
  }
  // `by` is required on counts.
  if (route === 'counts' && !query.has('by')) offending.push('by');
  if (offending.length > 0) return { status: 400, errorCode: 'invalid_parameter', parameters: offending };
  const include = query.get('include');
  if (include !== null) {
    const known = new Set(resource.includes.map((candidate) => candidate.name));
    if (known.size === 0 || include.split(',').some((name) => !known.has(name.trim()))) return { status: 400, errorCode: 'unsupported_include' };
  }
  if (token) return { status: 400, errorCode: 'invalid_cursor' };
  return { status: 200 };
}
