import { randomUUID } from 'node:crypto';
import { insertRecords, type RecordInput } from '../../src/db/insert-records.ts';
import type { JsonSchema } from '../../src/engine/compile/field-types.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';
import type { FieldType } from '../../src/engine/definition/resource-definition.ts';
import { compileSchema } from '../../src/engine/compile/compile-schema.ts';
import { nextTimestamp } from './fixtures.ts';
import { testDatabase } from './test-database.ts';

/**
 * Records of any family, built from its definition alone: a valid value for
 * every column field by type, so that generic tests can plant data in families
 * they do not know by name.
 */

/** A record as planted, by API field name (hidden fields included). */
export type PlantedRecord = Record<string, any>;

/** Overrides for every record, or per record by its index in the batch. */
export type Overrides = RecordInput | ((index: number) => RecordInput);

let sequence = 0;
/** A number never handed out before in this run: keeps generated values distinct (and unique fields unique). */
export function nextSequence(): number {
  sequence += 1;
  return sequence;
}

const DAY_MS = 86_400_000;
const DATE_BASE = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * A valid value of a field type, distinct for each `n`: `<name>-<n>` for
 * strings, `n` for integers, `'<n>.50'` for decimals, a date `n` days after
 * 2026-01-01, and so on. Timestamps use `at` when given.
 */
export function sampleValue(field: Pick<Field, 'name' | 'type' | 'values' | 'unique'>, n: number, at?: string): unknown {
  switch (field.type) {
    case 'uuid':
      return randomUUID();
    case 'string':
      return `${field.name}-${n}`;
    case 'integer':
      return n % 2_000_000_000;
    case 'decimal':
      return `${n}.50`;
    case 'boolean':
      return n % 2 === 1;
    case 'date':
      return new Date(DATE_BASE + (n % 20_000) * DAY_MS).toISOString().slice(0, 10);
    case 'timestamp':
      return at ?? nextTimestamp();
    case 'json':
      return { field: field.name, n, tags: ['a', 'b'], nested: { ok: true } };
    case 'enum': {
      const values = field.values ?? [];
      return field.unique ? values[n % values.length] : values[0];
    }
  }
}

/** How the API writes a value that was stored from `sampleValue` (or an override of the same shape). */
export function renderedValue(type: FieldType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'timestamp':
      return new Date(value as string).toISOString();
    case 'decimal':
      return String(value);
    default:
      return value;
  }
}

/** The fields a record writes: those with a column of this table. */
export function columnFields(resource: Resource): Field[] {
  return resource.fields.filter((field) => field.column !== null);
}

/**
 * Inserts `count` records of the family at `path` for a brand (null: shared
 * rows, or the tenant family) in one batch, and returns them as written.
 *
 * Every column field gets a valid value by type; `createdAt`, `updatedAt` and
 * other timestamps get one `nextTimestamp()` per record, so records come back
 * in the order made. Reference fields (`references`) are null unless
 * overridden, except a non-nullable one, which gets a fresh referenced row in
 * the same brand (or the record itself when the family references itself).
 */
export async function makeRecords({ registry, path, brandId, count = 1, overrides = {} }: {
  registry: Registry;
  path: string;
  brandId: string | null;
  count?: number;
  overrides?: Overrides;
}): Promise<PlantedRecord[]> {
  return makeDepth({ registry, path, brandId, count, overrides, depth: 0 });
}

async function makeDepth({ registry, path, brandId, count, overrides, depth }: {
  registry: Registry;
  path: string;
  brandId: string | null;
  count: number;
  overrides: Overrides;
  depth: number;
}): Promise<PlantedRecord[]> {
  if (depth > 6) throw new Error(`${path}: non-nullable references nest too deep to plant`);
  const { db } = await testDatabase();
  const resource = registry.get(path);
  const fields = columnFields(resource);
  const records: PlantedRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const given = typeof overrides === 'function' ? overrides(index) : overrides;
    const at = nextTimestamp();
    const record: PlantedRecord = {};
    for (const field of fields) {
      if (field.name === 'id') record.id = randomUUID();
      else if (field.references !== null) record[field.name] = null;
      else record[field.name] = sampleValue(field, nextSequence(), at);
    }
    Object.assign(record, given);
    for (const field of fields) {
      if (field.references === null || field.nullable || record[field.name] !== null) continue;
      if (field.references === path) {
        record[field.name] = record.id;
        continue;
      }
      const referenced = registry.get(field.references);
      const parentBrand = referenced.scope === 'tenant' ? null : (brandId ?? (await anyBrand(registry, depth)));
      const [parent] = await makeDepth({ registry, path: field.references, brandId: parentBrand, count: 1, overrides: {}, depth: depth + 1 });
      record[field.name] = parent!.id;
    }
    records.push(record);
  }
  await insertRecords({ db, resource, brandId: resource.scope === 'tenant' ? null : brandId, records });
  return records;
}

/** A brand id for a brand-owned row that a shared one needs (a non-nullable reference). */
async function anyBrand(registry: Registry, depth: number): Promise<string> {
  const tenant = registry.resources.find((resource) => resource.scope === 'tenant');
  if (!tenant) throw new Error('the registry has no tenant family');
  const [brand] = await makeDepth({ registry, path: tenant.path, brandId: null, count: 1, overrides: {}, depth: depth + 1 });
  return brand!.id as string;
}

/**
 * `count` distinct valid values of a field (the first is meant to match, the
 * rest not to), creating referenced rows in the brand when the field has a
 * foreign key. Strings differ only in case or by a trailing space where they
 * can, so that exact, case-sensitive matching is what tells them apart.
 */
export async function distinctValues({ registry, field, brandId, count }: {
  registry: Registry;
  field: Pick<Field, 'name' | 'type' | 'values' | 'references'>;
  brandId: string | null;
  count: number;
}): Promise<unknown[]> {
  if (field.references) {
    const rows = await makeRecords({ registry, path: field.references, brandId, count });
    return rows.map((row) => row.id);
  }
  const n = nextSequence();
  const tag = randomUUID().slice(0, 8);
  let values: unknown[];
  switch (field.type) {
    case 'uuid':
      values = Array.from({ length: count }, () => randomUUID());
      break;
    case 'string': {
      const base = `Val ${tag} ${n}`;
      values = [base, base.toLowerCase(), `${base} `, base.toUpperCase(), `Other ${tag}`];
      for (let i = values.length; i < count; i += 1) values.push(`Other ${tag} ${i}`);
      break;
    }
    case 'enum':
      values = [...(field.values ?? [])];
      break;
    case 'integer':
      values = Array.from({ length: count }, (_, i) => 1000 * (n % 1_000_000) + i);
      break;
    case 'decimal':
      values = Array.from({ length: count }, (_, i) => `${n}.${String(10 + i * 7).padStart(2, '0')}`);
      break;
    case 'boolean':
      values = [true, false];
      break;
    case 'date':
      values = Array.from({ length: count }, (_, i) => new Date(DATE_BASE + ((n * 7 + i) % 20_000) * DAY_MS).toISOString().slice(0, 10));
      break;
    case 'timestamp':
      values = Array.from({ length: count }, () => nextTimestamp());
      break;
    case 'json':
      values = Array.from({ length: count }, (_, i) => ({ n, i }));
      break;
  }
  return values.slice(0, count);
}

/** A query-string form of a filter value. */
export function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const INTEGER_TEXT = /^-?(0|[1-9][0-9]{0,15})$/;

/**
 * The schema of one value of a parameter: a parameter that may be given
 * several times (any of) is an array of them, each checked alone.
 */
const oneValue = (schema: JsonSchema): JsonSchema => (schema.type === 'array' ? (schema.items as JsonSchema) : schema);

/** Whether a raw query value satisfies a parameter schema (integers and booleans are read from text first). */
export function acceptsParameter(parameter: JsonSchema, raw: string): boolean {
  const schema = oneValue(parameter);
  let value: unknown = raw;
  if (schema.type === 'integer') {
    if (!INTEGER_TEXT.test(raw)) return false;
    value = Number(raw);
  } else if (schema.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') return false;
    value = raw === 'true';
  }
  const text = JSON.stringify(schemaOnly(schema));
  let validate = validators.get(text);
  if (!validate) {
    validate = compileSchema(schemaOnly(schema));
    validators.set(text, validate);
  }
  return validate(value) as boolean;
}

const validators = new Map<string, ReturnType<typeof compileSchema>>();

/** The schema without its documentation keywords. */
function schemaOnly(schema: JsonSchema): JsonSchema {
  const { description: _description, example: _example, ...rest } = schema;
  return rest;
}

/**
 * Query values that a parameter schema refuses: the empty string, the wrong
 * type, values out of range, format or pattern, unknown enum values, one
 * character over `maxLength`, a NUL character. Every value returned is checked
 * against the schema, so none is accidentally valid.
 */
export function invalidParameterValues(parameter: JsonSchema): string[] {
  const schema = oneValue(parameter);
  const candidates: string[] = ['', 'not a valid value!'];
  switch (schema.type) {
    case 'integer':
      candidates.push('1.5', '1e1');
      if (typeof schema.maximum === 'number') candidates.push(String(schema.maximum + 1));
      break;
    case 'boolean':
      candidates.push('yes', '1');
      break;
    default:
      if (Array.isArray(schema.enum)) candidates.push(`${String(schema.enum[0])}-not-listed`, String(schema.enum[0]).toUpperCase());
      if (typeof schema.pattern === 'string') {
        if (schema.pattern.includes('u0000')) candidates.push('a\u0000b');
        else candidates.push(randomUUID().toUpperCase(), `${randomUUID()}0`);
      }
      if (typeof schema.maxLength === 'number') candidates.push('x'.repeat(schema.maxLength + 1));
      if (schema.format === 'date') candidates.push('2026-13-01', '2026-02-30');
      if (schema.format === 'date-time') candidates.push('2026-03-01', '2026-03-01T25:00:00Z');
  }
  return [...new Set(candidates)].filter((raw) => !acceptsParameter(schema, raw));
}

/** A query value that a parameter schema accepts (at its longest, for a string with `maxLength`). */
export function validParameterValue(parameter: JsonSchema): string {
  const schema = oneValue(parameter);
  const candidates: string[] = [];
  if (Array.isArray(schema.enum)) candidates.push(String(schema.enum[0]));
  if (schema.type === 'integer') candidates.push('1');
  if (schema.type === 'boolean') candidates.push('true');
  if (schema.format === 'date') candidates.push('2026-03-01');
  if (schema.format === 'date-time') candidates.push('2026-03-01T09:30:00.000Z');
  if (typeof schema.maxLength === 'number') candidates.push('x'.repeat(schema.maxLength));
  candidates.push(randomUUID(), '12.50', 'x');
  const found = candidates.find((raw) => acceptsParameter(schema, raw));
  if (found === undefined) throw new Error(`no valid sample for parameter schema ${JSON.stringify(schema)}`);
  return found;
}
