import type { Field, Filter, Resource } from '../../src/engine/definition/resource.ts';
import type { FieldType } from '../../src/engine/definition/resource-definition.ts';
import type { PlantedRecord } from '../support/record-factory.ts';

/**
 * What a list or counts question must answer, worked out in JavaScript from
 * the records a test planted (CONTRACT.md §8): which records an exact filter
 * (any of its values), a `...Since` filter and range bounds keep, in which
 * order a `sort` puts them (ties by `createdAt`, then `id`, in the sort's
 * direction; null after every value ascending, before every value
 * descending), and the counts by value of a field (largest first, equal
 * counts by value ascending, null last).
 *
 * Values are compared as Postgres compares their columns: timestamps at
 * microseconds, `-infinity` and `infinity` at the ends; dates by day; a
 * decimal exactly, never through a float, with `NaN` above every number and
 * above `Infinity` (and equal to itself); strings by the database's own
 * collation, given as ranks (`TextRanks`), since the order of `'a'`, `'B'`
 * and `'é'` is the database's to say.
 */

/** Where a value sorts: its class (-1 for -infinity, 0 for a value, 1 for infinity, 2 for NaN), then the value within its class. */
export type Key = readonly [number, bigint | string];

/** The rank of each string in the database's collation (equal strings share one). */
export type TextRanks = ReadonlyMap<string, number>;

/** Digits of a decimal's fraction when compared: more than any bound (20) or planted value has. */
const DECIMAL_SCALE = 40;

const TIMESTAMP_TEXT = /^([+-]\d{4,}|\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([Zz])|([+-])(\d\d)(?::?(\d\d))?)$/;
const DATE_TEXT = /^([+-]\d{4,}|\d{4})-(\d\d)-(\d\d)$/;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Milliseconds since 1970 of a UTC wall time, for any year (Date.UTC reads years 0 to 99 as 1900 to 1999). */
function utcMilliseconds(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  return date.getTime();
}

function infinityClass(text: string): number | null {
  if (text === 'infinity') return 1;
  return text === '-infinity' ? -1 : null;
}

/**
 * The instant of an ISO 8601 timestamp in microseconds (expanded years and
 * any offset; a fraction past microseconds rounded half up), or null when
 * Postgres might round it otherwise (the digits past microseconds near one
 * half: it reads the fraction as a double) or the text is no timestamp.
 */
export function timestampMicros(text: string): bigint | null {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds, fraction = '', zulu, sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const rest = fraction.slice(6);
  if (/^(49999|50000)/.test(rest.padEnd(5, '0')) && rest.length > 0) return null;
  let micros = BigInt(fraction.slice(0, 6).padEnd(6, '0'));
  if (rest !== '' && Number(rest[0]) >= 5) micros += 1n;
  const milliseconds = utcMilliseconds(Number(year), Number(month), Number(day), Number(hours), Number(minutes), Number(seconds));
  if (Number.isNaN(milliseconds)) return null;
  const offset = zulu ? 0n : (sign === '-' ? -1n : 1n) * BigInt(Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000_000n;
  return BigInt(milliseconds) * 1000n + micros - offset;
}

/** The day of a `YYYY-MM-DD` date (or an expanded year), days since 1970-01-01. */
export function dateDay(text: string): bigint | null {
  const match = DATE_TEXT.exec(text);
  if (!match) return null;
  return BigInt(Math.round(utcMilliseconds(Number(match[1]), Number(match[2]), Number(match[3])) / 86_400_000));
}

/** A decimal scaled to `DECIMAL_SCALE` fraction digits, exactly. */
function scaledDecimal(text: string): bigint | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const magnitude = BigInt(`${whole}${fraction.padEnd(DECIMAL_SCALE, '0')}`);
  return sign === '-' ? -magnitude : magnitude;
}

/** The key of a non-null value of a field type, as a record or a bound writes it; throws on a value it cannot place. */
export function keyOf(type: FieldType, value: unknown, ranks: TextRanks): Key {
  const fail = (): never => {
    throw new Error(`question-oracle: cannot place the ${type} ${JSON.stringify(value)}`);
  };
  switch (type) {
    case 'integer':
      return [0, BigInt(String(value))];
    case 'decimal': {
      const text = String(value);
      if (text === 'NaN') return [2, 0n];
      if (text === 'Infinity') return [1, 0n];
      if (text === '-Infinity') return [-1, 0n];
      return [0, scaledDecimal(text) ?? fail()];
    }
    case 'date': {
      const text = String(value);
      const end = infinityClass(text);
      return end === null ? [0, dateDay(text) ?? fail()] : [end, 0n];
    }
    case 'timestamp': {
      const text = String(value);
      const end = infinityClass(text);
      return end === null ? [0, timestampMicros(text) ?? fail()] : [end, 0n];
    }
    case 'string':
    case 'enum':
      return [0, BigInt(ranks.get(String(value)) ?? fail())];
    case 'uuid':
      // Postgres compares UUIDs byte by byte: lower-case hex text compares the same.
      return [0, String(value)];
    case 'boolean':
      return [0, value ? 1n : 0n];
    case 'json':
      return fail();
  }
}

export function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** Whether a bound's text can be placed exactly (a timestamp whose rounding to microseconds is certain). */
export function isExactBound(type: FieldType, text: string): boolean {
  if (type === 'timestamp') return timestampMicros(text) !== null;
  if (type === 'date') return dateDay(text) !== null;
  return true;
}

/** The planted field a filter, sort or range compares: a column of the family's own table. */
export function fieldOfColumn(resource: Resource, column: string): Field | null {
  return resource.fields.find((field) => field.column === column) ?? null;
}

const BOUND_TESTS: Readonly<Record<string, (order: number) => boolean>> = {
  since: (order) => order >= 0,
  gte: (order) => order >= 0,
  gt: (order) => order > 0,
  lte: (order) => order <= 0,
  lt: (order) => order < 0,
};

/**
 * Whether the oracle can answer for this filter: an exact filter, a
 * `...Since` filter or a bound on a column of the family's own table (not
 * a join, not a substring search).
 */
export function oracleKnows(resource: Resource, filter: Filter): boolean {
  const [target] = filter.targets;
  return filter.targets.length === 1 && target!.join === null && (filter.match === 'exact' || Object.hasOwn(BOUND_TESTS, filter.match))
    && fieldOfColumn(resource, target!.column) !== null;
}

/** Whether the oracle answers the query: every filter in it one it knows, every bound one it places exactly. */
export function oracleAnswers(resource: Resource, query: URLSearchParams): boolean {
  return resource.filters.every((filter) => {
    const values = query.getAll(filter.name);
    if (values.length === 0) return true;
    if (!oracleKnows(resource, filter)) return false;
    return filter.match === 'exact' || values.every((value) => isExactBound(filter.targets[0]!.type, value));
  });
}

/** Whether a planted record matches every filter of the query (each one the oracle knows: `oracleKnows`). */
export function matchesQuery({ resource, record, query, ranks }: { resource: Resource; record: PlantedRecord; query: URLSearchParams; ranks: TextRanks }): boolean {
  for (const filter of resource.filters) {
    const values = query.getAll(filter.name);
    if (values.length === 0) continue;
    if (!oracleKnows(resource, filter)) throw new Error(`question-oracle: cannot answer ${filter.name} of ${resource.path}`);
    const field = fieldOfColumn(resource, filter.targets[0]!.column)!;
    const value = record[field.name] as unknown;
    if (value === null || value === undefined) return false;
    if (filter.match === 'exact') {
      if (!values.includes(String(value))) return false;
      continue;
    }
    const order = compareKeys(keyOf(field.type, value, ranks), keyOf(field.type, values[0]!, ranks));
    if (!BOUND_TESTS[filter.match]!(order)) return false;
  }
  return true;
}

/** The records in the order of a `sort` value (`createdAt` without one): nulls last ascending, first descending; ties by `createdAt`, then `id`, the same way. */
export function inSortOrder({ resource, records, sort, ranks }: { resource: Resource; records: readonly PlantedRecord[]; sort: string | null; ranks: TextRanks }): PlantedRecord[] {
  const name = sort ?? 'createdAt';
  const descending = name.startsWith('-');
  const field = resource.sorts.find((candidate) => candidate.name === name.replace(/^-/, ''));
  if (!field) throw new Error(`question-oracle: ${resource.path} does not sort by ${name}`);
  const created = resource.fields.find((candidate) => candidate.name === 'createdAt')!;
  const planted = fieldOfColumn(resource, field.sourceColumn)!;
  const direction = descending ? -1 : 1;
  return [...records].sort((a, b) => {
    const x = a[planted.name] as unknown;
    const y = b[planted.name] as unknown;
    const xNull = x === null || x === undefined;
    const yNull = y === null || y === undefined;
    // Null after every value ascending, before every value descending: always on the far side.
    if (xNull !== yNull) return (xNull ? 1 : -1) * direction;
    const byValue = xNull ? 0 : compareKeys(keyOf(planted.type, x, ranks), keyOf(planted.type, y, ranks));
    if (byValue !== 0) return byValue * direction;
    const byCreated = compareKeys(keyOf('timestamp', a[created.name], ranks), keyOf('timestamp', b[created.name], ranks));
    if (byCreated !== 0) return byCreated * direction;
    return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * direction;
  });
}

/** A counts body's `counts` for these records: each value of the field once, the largest counts first, equal counts by value ascending, null last. */
export function expectedCounts({ records, field, ranks }: { records: readonly PlantedRecord[]; field: Field; ranks: TextRanks }): { value: unknown; count: number }[] {
  const groups = new Map<string, { value: unknown; count: number }>();
  for (const record of records) {
    const value = (record[field.name] as unknown) ?? null;
    const id = JSON.stringify(value);
    const group = groups.get(id) ?? { value, count: 0 };
    group.count += 1;
    groups.set(id, group);
  }
  return [...groups.values()].sort((a, b) => {
    if (a.count !== b.count) return b.count - a.count;
    if ((a.value === null) !== (b.value === null)) return a.value === null ? 1 : -1;
    return a.value === null ? 0 : compareKeys(keyOf(field.type, a.value, ranks), keyOf(field.type, b.value, ranks));
  });
}
