import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import type { Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { acceptsParameter } from '../support/record-factory.ts';

/**
 * What a route must answer a query with, worked out from the contract alone
 * (CONTRACT.md §3, README "Strict parameters"): 400 `invalid_parameter`
 * naming each undeclared or repeated parameter and each value out of its rule
 * (a list takes `limit`, `cursor` and its filters, a single record none of
 * them; both take `include` and `fields`); else 400 `unsupported_include` for
 * an unknown include; else 400 `invalid_cursor` for a cursor (no random text
 * is a signed cursor); else 200 (or, for a single record, 200 or 404).
 */
export type QueryOutcome =
  | { readonly status: 200 }
  | { readonly status: 400; readonly errorCode: 'invalid_parameter'; readonly parameters: readonly string[] }
  | { readonly status: 400; readonly errorCode: 'unsupported_include' | 'invalid_cursor' };

const LIMIT = /^([1-9][0-9]?|100)$/;
const MAX_INCLUDE_LENGTH = 1024;
const MAX_FIELDS_LENGTH = 2048;

export function expectedQueryOutcome({ resource, query, route }: { resource: Resource; query: URLSearchParams; route: 'list' | 'get' }): QueryOutcome {
  const schemas = route === 'list' ? filterSchemas(resource) : {};
  const fieldNames = new Set(resource.recordFields.map((field) => field.name));
  const includeNames = new Set(resource.includes.map((include) => include.name));
  const offending: string[] = [];
  let include: string | null = null;
  let cursor = false;
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    const value = values[0]!;
    if (values.length > 1) offending.push(name);
    else if (name === 'include') {
      include = value;
      if (value.length < 1 || value.length > MAX_INCLUDE_LENGTH) offending.push(name);
    } else if (name === 'fields') {
      const listed = value.split(',').map((field) => field.trim());
      if (value.length > MAX_FIELDS_LENGTH || listed.some((field) => !fieldNames.has(field))) offending.push(name);
    } else if (name === 'cursor' && route === 'list') cursor = true;
    else if (name === 'limit' && route === 'list') {
      if (!LIMIT.test(value)) offending.push(name);
    } else if (Object.hasOwn(schemas, name)) {
      if (!acceptsParameter(schemas[name] as JsonSchema, value)) offending.push(name);
    } else offending.push(name);
  }
  if (offending.length > 0) return { status: 400, errorCode: 'invalid_parameter', parameters: offending };
  if (include !== null && include.split(',').some((name) => !includeNames.has(name.trim()))) return { status: 400, errorCode: 'unsupported_include' };
  if (cursor) return { status: 400, errorCode: 'invalid_cursor' };
  return { status: 200 };
}
