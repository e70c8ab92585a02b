import type { RecordInput } from '../../db/insert-records.ts';
import type { Field, Resource } from '../../engine/definition/resource.ts';

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
  if (field.references !== null) return field.references;
  const include = resource.includes.find((candidate) => candidate.cardinality === 'one' && candidate.localField === field.name);
  return include?.resource ?? null;
}

/**
 * The value of a field that links nowhere in the `n`th derived row (from 1):
 * `<field> <n>` for a string, the nth enum value (round the list), `n` for
 * an integer, `'<n>.00'` for a decimal, true and false in turn, a date or
 * instant `n - 1` days after `at`, `{ row: n }` for JSON, a new id for a uuid.
 */
export function derivedValue({ field, n, at, newId }: { field: Field; n: number; at: string; newId: () => string }): unknown {
  const day = new Date(Date.parse(at) + (n - 1) * DAY_MS).toISOString();
  switch (field.type) {
    case 'uuid':
      return newId();
    case 'string':
      return `${field.name} ${n}`;
    case 'enum':
      return field.values && field.values.length > 0 ? field.values[(n - 1) % field.values.length] : `${field.name} ${n}`;
    case 'integer':
      return n;
    case 'decimal':
      return `${n}.00`;
    case 'boolean':
      return n % 2 === 1;
    case 'date':
      return day.slice(0, 10);
    case 'timestamp':
      return day;
    case 'json':
      return { row: n };
  }
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
