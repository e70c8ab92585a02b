import { didYouMean } from '../definition/did-you-mean.ts';
import type { ParameterIssue } from './api-error.ts';
import type { JsonSchema } from '../compile/field-types.ts';
import type { Include } from '../definition/resource.ts';

/**
 * `fields=id,code,name`: a sparse field set on every list and get. Records
 * then carry only the named fields, in the family's order, plus any includes
 * asked for; without `fields` they carry every field, as the spec gives them.
 * The projection happens after the records are read, so includes still find
 * the keys they join on whatever fields the client keeps.
 */

export const FIELDS_SCHEMA: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'Comma-separated fields to return in each record, instead of all of them. Includes asked for are returned as well.',
};

/** The field names of `fields=...`, checked against the record's fields; issues name each unknown one. */
export function parseFields(text: string, { path, fieldNames: known }: { path: string; fieldNames: readonly string[] }): { fields: readonly string[] | null; issues: ParameterIssue[] } {
  const asked = new Set(text.split(',').map((name) => name.trim()));
  const issues: ParameterIssue[] = [];
  for (const name of asked) {
    if (name === '') issues.push({ parameter: 'fields', message: 'must list field names separated by commas, with none empty' });
    else if (!known.includes(name)) issues.push({ parameter: 'fields', message: `'${name}' is not a field of ${path}${didYouMean(name, known)}` });
  }
  if (text.length > Number(FIELDS_SCHEMA.maxLength)) issues.push({ parameter: 'fields', message: `must be at most ${String(FIELDS_SCHEMA.maxLength)} characters` });
  // The first issue per parameter is enough for `details`.
  return { fields: issues.length > 0 ? null : known.filter((name) => asked.has(name)), issues: issues.slice(0, 1) };
}

/** A record with only the chosen fields and the includes (all of it when `fields` is null). */
export function projectRecord(record: Record<string, unknown>, fields: readonly string[] | null, includes: readonly Include[]): Record<string, unknown> {
  if (fields === null) return record;
  const out: Record<string, unknown> = {};
  for (const name of fields) out[name] = record[name];
  for (const include of includes) out[include.name] = record[include.name];
  return out;
}
