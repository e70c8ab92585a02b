import type { ValidateFunction } from 'ajv';
import type { CompiledResource } from '../compile/compile-registry.ts';
import { didYouMean } from '../definition/did-you-mean.ts';
import { ApiError, invalidParameters, type ParameterIssue } from './api-error.ts';
import type { JsonSchema } from '../compile/field-types.ts';
import type { Include } from '../definition/resource.ts';
import { DEFAULT_LIMIT, INCLUDE_SCHEMA } from '../compile/schemas.ts';
import { parseFields } from './sparse-fields.ts';
import { DEFAULT_SORT, type ListSort } from '../compile/list-sorts.ts';
import { compileSchema, parameterIssues } from '../compile/compile-schema.ts';

/** A query string as Koa parses it: a repeated key becomes an array. */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/** A list request after validation. */
export interface ListRequest {
  readonly limit: number;
  readonly cursor: string | null;
  /** The order (`DEFAULT_SORT` without `sort`). */
  readonly sort: ListSort;
  /**
   * Validated filter values by parameter name, in the order given: one
   * value as it is, a filter given with several values as an array of them
   * (each once, in the order given).
   */
  readonly filters: Readonly<Record<string, unknown>>;
  readonly includes: readonly Include[];
  /** The sparse field set, or null for every field. */
  readonly fields: readonly string[] | null;
}

/** What a query gives: validated parameter values, the includes and the sparse field set. */
export interface ParsedQuery {
  readonly values: Record<string, unknown>;
  readonly includes: readonly Include[];
  readonly fields: readonly string[] | null;
}

const INTEGER_TEXT = /^-?(0|[1-9][0-9]{0,15})$/;
const validateInclude = compileSchema(INCLUDE_SCHEMA);

/**
 * Checks a query against a compiled schema, strictly: an undeclared
 * parameter is an issue, and so is one given twice unless its schema is a
 * list (an exact filter, which takes any of several values: CONTRACT.md §8);
 * integers must be written as plain decimals (no `1e1`, ` 5` or `0x10`),
 * booleans as `true` or `false`. `include` and `fields` are read apart,
 * since every route of records knows them (CONTRACT.md §3); a route without
 * records (counts) takes neither (`records: false`).
 * Issues already found in the path (a malformed id) are listed first, so one
 * 400 names every offending parameter.
 */
export function parseQuery({ query, schema, validate, family, pathIssues = [], records = true }: {
  query: RawQuery;
  schema: JsonSchema;
  validate: ValidateFunction;
  family: CompiledResource;
  pathIssues?: readonly ParameterIssue[];
  records?: boolean;
}): ParsedQuery {
  const properties = schema.properties as Record<string, JsonSchema>;
  const issues: ParameterIssue[] = [...pathIssues];
  const values: Record<string, unknown> = {};
  let includeText: string | undefined;
  let fields: readonly string[] | null = null;

  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    // Own keys only: `__proto__` or `constructor` must be unknown parameters, not inherited ones.
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const list = property?.type === 'array';
    if (Array.isArray(raw) && !list) {
      issues.push({ parameter: name, message: 'must be given at most once' });
      continue;
    }
    if (records && name === 'include') {
      includeText = raw as string;
      continue;
    }
    if (records && name === 'fields') {
      const parsed = parseFields(raw as string, { path: family.resource.path, fieldNames: family.fieldNames });
      issues.push(...parsed.issues);
      fields = parsed.fields;
      continue;
    }
    if (!property) {
      issues.push({ parameter: name, message: `is not a parameter of this route${didYouMean(name, Object.keys(properties))}` });
      continue;
    }
    const type = list ? (property.items as JsonSchema).type : property.type;
    const converted = (Array.isArray(raw) ? raw : [raw]).map((text) => convert(text, type));
    if (converted.includes(undefined)) {
      issues.push({ parameter: name, message: type === 'integer' ? 'must be an integer' : 'must be true or false' });
      continue;
    }
    values[name] = list ? converted : converted[0];
  }

  if (!validate(values)) issues.push(...parameterIssues(validate.errors).filter((i) => !issues.some((j) => j.parameter === i.parameter)));
  for (const [name, value] of Object.entries(values)) {
    if (Array.isArray(value)) values[name] = oneOrEach(value);
  }
  // A family that declares no include refuses any `include`, the empty one too, as unsupported (CONTRACT.md §3).
  if (includeText !== undefined && family.includesByName.size > 0 && !validateInclude(includeText)) {
    issues.push({ ...parameterIssues(validateInclude.errors)[0]!, parameter: 'include' });
  }
  if (issues.length > 0) throw invalidParameters(issues);
  return { values, includes: parseIncludes(includeText, family), fields };
}

/** The values of a parameter given several times, each once in the order given; one value as it is, as before any of existed. */
function oneOrEach(values: readonly unknown[]): unknown {
  const each = [...new Set(values)];
  return each.length === 1 ? each[0] : each;
}

function convert(raw: string, type: unknown): unknown {
  if (type === 'integer') return INTEGER_TEXT.test(raw) ? Number(raw) : undefined;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  return raw;
}

/** `include=a,b` into the family's includes; any unknown name is 400 `unsupported_include`. */
function parseIncludes(text: string | undefined, { resource, includesByName: known }: CompiledResource): readonly Include[] {
  if (text === undefined) return [];
  if (known.size === 0) {
    throw new ApiError({ errorCode: 'unsupported_include', details: [{ parameter: 'include', message: `${resource.path} has no includes: leave include out` }] });
  }
  const chosen = new Map<string, Include>();
  const unknown: ParameterIssue[] = [];
  for (const name of text.split(',')) {
    const include = known.get(name.trim());
    if (include) chosen.set(include.name, include);
    else {
      unknown.push({
        parameter: 'include',
        message: `'${name}' is not an include of ${resource.path}${didYouMean(name, known.keys())}; known: ${[...known.keys()].join(', ')}`,
      });
    }
  }
  if (unknown.length > 0) throw new ApiError({ errorCode: 'unsupported_include', details: unknown });
  return [...chosen.values()];
}

/** Splits a parsed list query into the engine's parameters and the filters. */
export function toListRequest({ values, includes, fields }: ParsedQuery, family: CompiledResource): ListRequest {
  const { cursor, limit, sort, ...filters } = values;
  return {
    limit: (limit as number | undefined) ?? DEFAULT_LIMIT,
    cursor: (cursor as string | undefined) ?? null,
    sort: family.sorts.get((sort as string | undefined) ?? DEFAULT_SORT)!,
    filters,
    includes,
    fields,
  };
}
