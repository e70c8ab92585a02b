import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { acceptsParameter } from '../support/record-factory.ts';

/**
 * What a route must answer a query with, worked out from the contract alone
 * (CONTRACT.md §3 and §6, README "Strict parameters"): 400
 * `invalid_parameter` naming each undeclared or repeated parameter and each
 * value out of its rule (a list takes `limit`, `cursor` and its filters, a
 * single record none of them, both take `include` and `fields`; the changes
 * feed takes `syncToken`, `cursor`, `limit` and `fields`); else 400
 * `unsupported_include` for an include the family does not declare (any
 * include, the empty one too, on a family that declares none); else 400
 * `invalid_cursor` for a cursor or sync token (no random text is a signed
 * one); else 200 (or, for a single record, 200 or 404).
 */
export type QueryOutcome =
  | { readonly status: 200 }
  | { readonly status: 400; readonly errorCode: 'invalid_parameter'; readonly parameters: readonly string[] }
  | { readonly status: 400; readonly errorCode: 'unsupported_include' | 'invalid_cursor' };

export type RouteKind = 'list' | 'get' | 'changes';

const LIMITS: Readonly<Record<RouteKind, RegExp | null>> = {
  list: /^([1-9][0-9]?|100)$/,
  changes: /^([1-9][0-9]{0,2}|1000)$/,
  get: null,
};
const MAX_INCLUDE_LENGTH = 1024;
const MAX_FIELDS_LENGTH = 2048;

/** Whether one parameter, given once, is out of its rule on this route; null when it is a token or cursor to decode. */
function offends({ resource, route, name, value }: { resource: Resource; route: RouteKind; name: string; value: string }): boolean | 'token' {
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
  const schemas = route === 'list' ? filterSchemas(resource) : {};
  if (Object.hasOwn(schemas, name)) return !acceptsParameter(schemas[name] as JsonSchema, value);
  return true;
}

export function expectedQueryOutcome({ resource, query, route }: { resource: Resource; query: URLSearchParams; route: RouteKind }): QueryOutcome {
  const offending: string[] = [];
  let token = false;
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    const verdict = values.length > 1 || offends({ resource, route, name, value: values[0]! });
    if (verdict === 'token') token = true;
    else if (verdict) offending.push(name);
  }
  if (offending.length > 0) return { status: 400, errorCode: 'invalid_parameter', parameters: offending };
  const include = query.get('include');
  if (include !== null) {
    const known = new Set(resource.includes.map((candidate) => candidate.name));
    if (known.size === 0 || include.split(',').some((name) => !known.has(name.trim()))) return { status: 400, errorCode: 'unsupported_include' };
  }
  if (token) return { status: 400, errorCode: 'invalid_cursor' };
  return { status: 200 };
}
