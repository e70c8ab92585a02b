import type { RecordInput } from '../../db/insert-records.ts';
import type { Field, Resource } from '../../engine/definition/resource.ts';
import type { FieldType } from '../../engine/definition/resource-definition.ts';

/**
 * Demo records of a family built from its definition alone, for a family
 * that has no story of its own: every column field gets a value of its type,
 * and every link points at a row already seeded. Nothing here names a family.
 */

/** Demo rows derived for a family with no story. */
export const DERIVED_ROWS_PER_FAMILY = 3;

const DAY_MS = 86_400_000;

/**
 * The family a field's value is the id of: the one it `references` (a
 * foreign key), or else the one a to-one include follows it to. Null for a
 * field that links nowhere.
 */
export function linkTargetOf(resource: Resource, field: Field): string | null {
  // A row's own id is its key, never a link to fill (even when an include matches it to another family's id).
  if (field.name === 'id') return null;
  if (field.references !== null) return field.references;
  const include = resource.includes.find((candidate) => candidate.cardinality === 'one' && candidate.localField === field.name);
  return include?.resource ?? null;
}

/** What a derived value is made from: the field, the row's number (from 1), the moment, the id sequence. */
export interface ValueInput {
  readonly field: Field;
  readonly n: number;
  readonly at: string;
  readonly newId: () => string;
}

/** An instant `n - 1` days after `at`. */
const dayOf = ({ n, at }: ValueInput): string => new Date(Date.parse(at) + (n - 1) * DAY_MS).toISOString();

const DERIVED_VALUES: Readonly<Record<FieldType, (input: ValueInput) => unknown>> = Object.freeze({
  uuid: ({ newId }) => newId(),
  string: ({ field, n }) => `${field.name} ${n}`,
  enum: ({ field, n }) => (field.values && field.values.length > 0 ? field.values[(n - 1) % field.values.length] : `${field.name} ${n}`),
  integer: ({ n }) => n,
  decimal: ({ n }) => `${n}.00`,
  boolean: ({ n }) => n % 2 === 1,
  date: (input) => dayOf(input).slice(0, 10),
  timestamp: dayOf,
  json: ({ n }) => ({ row: n }),
});

/**
 * The value of a field that links nowhere in the `n`th derived row (from 1):
 * `<field> <n>` for a string, the nth enum value (round the list), `n` for
 * an integer, `'<n>.00'` for a decimal, true and false in turn, a date or
 * instant `n - 1` days after `at`, `{ row: n }` for JSON, a new id for a uuid.
 */
export function derivedValue(input: ValueInput): unknown {
  return DERIVED_VALUES[input.field.type](input);
}

/**
 * How many rows a family can take without repeating a value of a unique
 * field: an enum has its values, a boolean two, a link the rows of its pool
 * (a link to the family itself: the first row, then null or itself), at most
 * `DERIVED_ROWS_PER_FAMILY` and at least one.
 */
export function derivedRowCount({ resource, poolOf }: { resource: Resource; poolOf: (path: string) => readonly string[] }): number {
  let count = DERIVED_ROWS_PER_FAMILY;
  for (const field of resource.fields.filter((f) => f.unique && f.column !== null)) {
    const target = linkTargetOf(resource, field);
    let distinct = Infinity;
    if (target === resource.path) distinct = field.nullable ? 2 : 1;
    // An empty pool leaves the link null, and nulls never collide.
    else if (target !== null) distinct = poolOf(target).length || Infinity;
    else if (field.type === 'enum') distinct = field.values?.length ?? 1;
    else if (field.type === 'boolean') distinct = 2;
    count = Math.min(count, distinct);
  }
  return Math.max(count, 1);
}

/**
 * `count` records of a family. Ids come from `newId`; `createdAt` and
 * `updatedAt` are left to `put`, which stamps them from the seed clock. The
 * `n`th row links to the `n`th row of the target's pool (round the pool); a
 * link to the family itself points at the first derived row (the first row
 * itself, or null when the field may be). A link with an empty pool is null
 * when the field may be, and an error naming the field when it may not.
 */
export function deriveRecords({ resource, count, poolOf, at, newId }: {
  resource: Resource;
  count: number;
  /** The ids a row may link to, for a target family. */
  poolOf: (path: string) => readonly string[];
  /** The moment dates and instants start from. */
  at: string;
  newId: () => string;
}): RecordInput[] {
  const fields = resource.fields.filter((field) => field.column !== null && !['id', 'createdAt', 'updatedAt'].includes(field.name));
  const records: Record<string, unknown>[] = [];
  for (let n = 1; n <= count; n += 1) {
    const record: Record<string, unknown> = { id: newId() };
    for (const field of fields) {
      const target = linkTargetOf(resource, field);
      record[field.name] = target === null ? derivedValue({ field, n, at, newId }) : linkValue({ resource, field, target, pool: poolOf(target), own: records, record, n });
    }
    records.push(record);
  }
  return records;
}

function linkValue({ resource, field, target, pool, own, record, n }: {
  resource: Resource;
  field: Field;
  target: string;
  pool: readonly string[];
  /** The family's rows derived so far, for a link to the family itself. */
  own: readonly Record<string, unknown>[];
  record: Record<string, unknown>;
  n: number;
}): unknown {
  if (target === resource.path) {
    if (own.length > 0) return own[0]!.id;
    return field.nullable ? null : record.id;
  }
  if (pool.length > 0) return pool[(n - 1) % pool.length];
  if (field.nullable) return null;
  throw new Error(`demo seed: cannot derive rows of '${resource.path}': '${field.name}' must point at a row of '${target}', and there is none`);
}
