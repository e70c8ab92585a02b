import { randomUUID } from 'node:crypto';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';
import type { FieldType } from '../../src/engine/definition/resource-definition.ts';
import { insertRecords } from '../../src/db/insert-records.ts';
import { createBrand, createTestKey } from '../support/fixtures.ts';
import { columnFields, makeRecords, nextSequence, sampleValue, type PlantedRecord } from '../support/record-factory.ts';
import { testDatabase } from '../support/test-database.ts';
import type { TextRanks } from './question-oracle.ts';

/**
 * The data the list-question fuzz tests read (CONTRACT.md §8): a brand of
 * their own, a key for it, and in it ten records of each of a few families,
 * their values drawn from small pools so that values repeat (ties for
 * `sort`, several records for one count), with nulls, and with the values
 * at the edges of what Postgres stores: `NaN`, `Infinity` and 40 digits for
 * a decimal, `infinity`, `-infinity`, 44 BC and the year 10000 for a date
 * or timestamp (`createdAt` too), int32's ends, two timestamps one
 * microsecond apart in the same millisecond, strings that only a collation
 * orders. The brand is new, so nothing else writes to it: what its lists
 * hold is exactly what was planted (shared families also show rows no brand
 * owns, which other tests may write).
 *
 * The families are chosen from the registry, not named one by one: `orders`,
 * `invoices` and `countries` when they exist, then, for each feature a list
 * question depends on that the chosen ones lack, the first family in
 * registry order that has it (a range of each type, a sort of each type, a
 * shared family, a family without `updatedAt`, one with nothing countable,
 * a boolean and an enumerated countable field, a filter on a joined table).
 */

/** Records planted per family. */
const PER_FAMILY = 10;

/** Features a list question depends on, each to be held by at least one chosen family. */
export const QUESTION_FEATURES: readonly (readonly [string, (resource: Resource) => boolean])[] = [
  ...(['timestamp', 'date', 'integer', 'decimal'] as const).map((type) => [`a ${type} range besides createdAt and updatedAt`, (r: Resource) => r.ranges.some((f) => f.type === type && f.name !== 'createdAt' && f.name !== 'updatedAt')] as const),
  ...(['string', 'integer', 'decimal', 'date', 'timestamp'] as const).map((type) => [`a ${type} sort besides createdAt and updatedAt`, (r: Resource) => r.sorts.some((f) => f.type === type && f.name !== 'createdAt' && f.name !== 'updatedAt')] as const),
  ['an integer sort that is not a range', (r) => r.sorts.some((f) => f.type === 'integer' && !r.ranges.includes(f))],
  ['shared scope', (r) => r.scope === 'shared'],
  ['no updatedAt', (r) => !r.sorts.some((f) => f.name === 'updatedAt')],
  ['nothing countable', (r) => r.countable.length === 0],
  ['a boolean countable field', (r) => r.countable.some((f) => f.type === 'boolean')],
  ['an enumerated countable field', (r) => r.countable.some((f) => f.type === 'enum')],
  ['a filter on a joined table', (r) => r.filters.some((filter) => filter.targets.some((target) => target.join !== null))],
];

/** The families named in the issue, when the registry has them. */
const NAMED = ['orders', 'invoices', 'countries'];

/** The chosen families, in registry order: the named ones, then one for each feature the others lack. */
export function questionFamilies(families: readonly Resource[]): Resource[] {
  const chosen = new Set(families.filter((resource) => NAMED.includes(resource.path)));
  for (const [, has] of QUESTION_FEATURES) {
    if ([...chosen].some(has)) continue;
    const first = families.find(has);
    if (first) chosen.add(first);
  }
  return families.filter((resource) => chosen.has(resource));
}

export interface QuestionData {
  readonly brand: { readonly id: string; readonly slug: string };
  readonly key: string;
  readonly families: readonly Resource[];
  /** The records planted in the brand, by family, values as the oracle reads them (ISO 8601 expanded years for dates and timestamps). */
  readonly planted: ReadonlyMap<string, readonly PlantedRecord[]>;
  /** The rank of every planted string and enumerated value in the database's collation. */
  readonly ranks: TextRanks;
  /** UUIDs the planted records hold: the few of plain UUID fields and the referenced rows' ids. */
  readonly uuids: readonly string[];
}

const UUIDS = [randomUUID(), randomUUID(), randomUUID()].sort();

/** The values of each type, written as the oracle reads them (`toDatabase` makes them Postgres input). */
const POOLS: Readonly<Record<FieldType, readonly unknown[]>> = {
  decimal: [null, '0', '-12.50', '12.5', '12.50', 'NaN', 'Infinity', '-Infinity', '99999999999999999999.99999999999999999999', '0.00000000000000000001', '12.5'],
  date: [null, '2026-03-01', 'infinity', '-infinity', '0001-01-01', '9999-12-31', '-000043-03-15', '+010000-01-01', '2026-03-01', '2026-03-02'],
  timestamp: [
    '2026-03-01T09:30:00.123456Z', '2026-03-01T09:30:00.123457Z', 'infinity', '-infinity', '-000043-03-15T12:00:00Z', '+010000-01-01T00:00:00Z',
    '2026-03-01T09:30:00.123456Z', '1999-12-31T23:59:59.999999Z', null, '2026-03-01T09:30:01Z', '0001-01-01T00:00:00Z',
  ],
  integer: [null, 0, -2147483648, 2147483647, 5, 5, -1, 42],
  string: [null, 'a', 'B', 'b', 'é', 'a', 'Z z', '%_', 'A', 'ab'],
  uuid: [null, ...UUIDS, UUIDS[0]],
  boolean: [null, true, false, true],
  json: [null, { n: 1 }],
  enum: [],
};

/** Postgres input for an oracle value: an expanded year becomes a year and an era. */
function toDatabase(type: FieldType, value: unknown): unknown {
  if (typeof value !== 'string' || (type !== 'date' && type !== 'timestamp') || !/^[+-]\d{6}/.test(value)) return value;
  const year = Number(value.slice(0, 7));
  const rest = value.slice(7);
  const era = year <= 0 ? ' BC' : '';
  const shown = String(year <= 0 ? 1 - year : year).padStart(4, '0');
  return type === 'date' ? `${shown}${rest}${era}` : `${shown}${rest.replace('T', ' ').replace(/Z$/, '+00')}${era}`;
}

function poolOf(field: Field, parents: ReadonlyMap<string, readonly string[]>): readonly unknown[] {
  const pool = field.type === 'enum'
    ? [null, ...(field.values ?? []), ...(field.values ?? []).slice(0, 1)]
    : field.references !== null
      ? [null, ...parents.get(field.references)!, parents.get(field.references)![0]]
      : POOLS[field.type];
  return field.nullable ? pool : pool.filter((value) => value !== null);
}

let current: Promise<QuestionData> | null = null;

/** Plants the question data once per process (the fuzz tests only read it), again when the database was reset since. */
export async function questionData(families: readonly Resource[]): Promise<QuestionData> {
  if (current) {
    const data = await current.catch(() => null);
    const { db } = await testDatabase();
    if (data && (await db('brands').where({ id: data.brand.id }).first()) !== undefined) return data;
  }
  current = plant(families);
  return current;
}

async function plant(all: readonly Resource[]): Promise<QuestionData> {
  const { db } = await testDatabase();
  const brand = await createBrand(`questions-${Date.now().toString(36)}`);
  const { key } = await createTestKey({ brands: [brand.slug] });
  const families = questionFamilies(all);
  // Referenced rows (foreign keys hold) in a brand of their own, which no test reads: the question brand holds exactly what is planted.
  const { registry } = await testDatabase();
  const parentBrand = await createBrand(`question-parents-${Date.now().toString(36)}`);
  const parents = new Map<string, string[]>();
  for (const field of families.flatMap((resource) => columnFields(resource))) {
    if (field.references === null || parents.has(field.references)) continue;
    const rows = await makeRecords({ registry, path: field.references, brandId: registry.get(field.references).scope === 'tenant' ? null : parentBrand.id, count: 2 });
    parents.set(field.references, rows.map((row) => row.id as string).sort());
  }
  const planted = new Map<string, PlantedRecord[]>();
  const texts = new Set<string>();
  for (const resource of families) {
    const fields = columnFields(resource);
    const records: PlantedRecord[] = [];
    for (let index = 0; index < PER_FAMILY; index += 1) {
      const record: PlantedRecord = {};
      for (const [at, field] of fields.entries()) {
        if (field.name === 'id') record.id = randomUUID();
        else if (field.unique) record[field.name] = sampleValue(field, nextSequence());
        else {
          const pool = poolOf(field, parents);
          record[field.name] = pool[(index * 7 + at * 3) % pool.length];
        }
        if ((field.type === 'string' || field.type === 'enum') && typeof record[field.name] === 'string') texts.add(record[field.name] as string);
      }
      records.push(record);
    }
    const rows = records.map((record) => Object.fromEntries(fields.map((field) => [field.name, toDatabase(field.type, record[field.name])])));
    await insertRecords({ db, resource, brandId: brand.id, records: rows });
    planted.set(resource.path, records);
  }
  // The database's own order of the strings: the columns are `text`, in its default collation.
  const ordered = await db.raw('select v, dense_rank() over (order by v) as r from unnest(?::text[]) as v', [[...texts]]);
  const ranks = new Map<string, number>(ordered.rows.map((row: { v: string; r: string | number }) => [row.v, Number(row.r)]));
  return { brand, key, families, planted, ranks, uuids: [...UUIDS, ...[...parents.values()].flat()] };
}
