/**
 * The list questions of CONTRACT.md §8 as the floor answers them for
 * products: by hand, as a bare handler would write them, not with the
 * engine's compiled statements. An order, any of a status, a `createdAt`
 * range, a keyset position or an OFFSET, the page and its `count(*)` in
 * parallel; counts by status with one `GROUP BY`.
 *
 * - `order=<field>` or `order=-<field>` (`createdAt`, `updatedAt`, `code`,
 *   `name`): `ORDER BY <column>[, created_at, id]`, every key in the same
 *   direction, as the server orders;
 * - `status` given once or several times: `status = any($n)`;
 * - `createdAt[gte]`, `createdAt[lt]`: `created_at >= $n`, `created_at < $n`;
 * - `after=<created_at>,<id>` (orders by `createdAt` only): the row before
 *   the page, `(created_at, id) > ($n, $n)` (`<` descending);
 * - `offset=<n>`: `LIMIT ... OFFSET n`; with `total=<n>`, the walk's total,
 *   given back as the server's cursor carries it: the page is then the one
 *   statement, with no count;
 * - `/counts?by=status` (the filters above allowed): `GROUP BY status`, the
 *   largest counts first, at most `MAX_COUNTED_VALUES`, the rest added up.
 *
 * The page reads its rows in a subquery with the limit and joins the
 * category after, as an efficient hand-written query does. Statements with a
 * range are sent unprepared on the prepared floor too: the server plans them
 * for their values (`MatchImpl.planPerValue`), and so does the floor.
 */
import { MAX_COUNTED_VALUES } from '../../src/engine/compile/counts-schemas.ts';

/** The parameters that send a products list to the hand-written SQL (a `status` given several times does too). */
export const HAND_PARAMETERS = Object.freeze(['order', 'offset', 'total', 'createdAt[gte]', 'createdAt[lt]']);

/** The fields the floor orders by, and their columns. */
const ORDER_COLUMNS: Readonly<Record<string, string>> = Object.freeze({ createdAt: 'created_at', updatedAt: 'updated_at', code: 'code', name: 'name' });

/** The fields the floor counts by, and their columns. */
const COUNTED_COLUMNS: Readonly<Record<string, string>> = Object.freeze({ status: 'status' });

const MAX_LIMIT = 100;

/** A question the floor cannot answer: 400. */
export class FloorQuestionError extends Error {
  override name = 'FloorQuestionError';
}

type Query = Readonly<Record<string, string | string[] | undefined>>;

/** A products list question, parsed. */
export interface HandQuestion {
  readonly order: { readonly field: string; readonly column: string; readonly descending: boolean };
  /** Null: no status filter. */
  readonly statuses: readonly string[] | null;
  readonly createdAt: { readonly gte: string | null; readonly lt: string | null };
  readonly after: { readonly createdAt: string; readonly id: string } | null;
  readonly offset: number;
  /** The walk's total, carried by the position: then nothing is counted. */
  readonly total: number | null;
  readonly limit: number;
}

/** One hand-written statement: `$n` text and its values; `prepare` false when the server plans it per request. */
export interface HandStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly prepare: boolean;
}

/** Whether a products list request is one of §8's questions, for the hand-written SQL. */
export function isHandQuestion(query: Query): boolean {
  return HAND_PARAMETERS.some((name) => query[name] !== undefined) || Array.isArray(query.status);
}

const one = (query: Query, name: string): string | undefined => {
  const value = query[name];
  if (Array.isArray(value)) throw new FloorQuestionError(`${name} given more than once`);
  return value;
};

function wholeNumber(name: string, text: string | undefined, fallback: number, { min, max }: { min: number; max: number }): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) throw new FloorQuestionError(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** The filters a list and counts share: any of a status, a `createdAt` range. */
function filtersOf(query: Query): Pick<HandQuestion, 'statuses' | 'createdAt'> {
  const status = query.status;
  return {
    statuses: status === undefined ? null : Array.isArray(status) ? status : [status],
    createdAt: { gte: one(query, 'createdAt[gte]') ?? null, lt: one(query, 'createdAt[lt]') ?? null },
  };
}

const KNOWN_LIST = new Set(['limit', 'status', 'after', ...HAND_PARAMETERS]);
const KNOWN_COUNTS = new Set(['by', 'status', 'createdAt[gte]', 'createdAt[lt]']);

function refuseUnknown(query: Query, known: ReadonlySet<string>): void {
  const unknown = Object.keys(query).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new FloorQuestionError(`the floor's hand-written questions take no ${unknown.join(', ')}`);
}

/** A products list question from its query; a `FloorQuestionError` for one the floor does not answer. */
export function parseHandQuestion(query: Query): HandQuestion {
  refuseUnknown(query, KNOWN_LIST);
  const orderText = one(query, 'order') ?? 'createdAt';
  const descending = orderText.startsWith('-');
  const field = descending ? orderText.slice(1) : orderText;
  const column = ORDER_COLUMNS[field];
  if (column === undefined) throw new FloorQuestionError(`order by ${field}: the floor orders by ${Object.keys(ORDER_COLUMNS).join(', ')}`);
  const afterText = one(query, 'after');
  let after: HandQuestion['after'] = null;
  if (afterText !== undefined) {
    if (field !== 'createdAt') throw new FloorQuestionError('after= is a position in a createdAt order; use offset= for other orders');
    const comma = afterText.lastIndexOf(',');
    if (comma < 1) throw new FloorQuestionError('after= is <created_at>,<id>');
    after = { createdAt: afterText.slice(0, comma), id: afterText.slice(comma + 1) };
  }
  const offset = wholeNumber('offset', one(query, 'offset'), 0, { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (after !== null && offset > 0) throw new FloorQuestionError('after= and offset= are two kinds of position: one at a time');
  const totalText = one(query, 'total');
  return {
    order: { field, column, descending },
    ...filtersOf(query),
    after,
    offset,
    total: totalText === undefined ? null : wholeNumber('total', totalText, 0, { min: 0, max: Number.MAX_SAFE_INTEGER }),
    limit: wholeNumber('limit', one(query, 'limit'), 25, { min: 1, max: MAX_LIMIT }),
  };
}

/** The record's columns, as the server's product reads them (the category's name joined, timestamps as JSON text). */
const RECORD = 't.id as "id", t.code as "code", t.name as "name", t.status as "status", c.name as "category", '
  + `to_json(t.created_at at time zone 'UTC')::text as "createdAt", to_json(t.updated_at at time zone 'UTC')::text as "updatedAt"`;

/** `where` over the brand's products and the filters, values from `$1` (the brand). */
function whereOf(brandId: string, filters: Pick<HandQuestion, 'statuses' | 'createdAt'>): { conditions: string[]; values: unknown[]; ranged: boolean } {
  const conditions = ['t.brand_id = $1'];
  const values: unknown[] = [brandId];
  const add = (condition: (n: string) => string, value: unknown): void => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (filters.statuses !== null) add((n) => `t.status = any(${n}::text[])`, filters.statuses);
  if (filters.createdAt.gte !== null) add((n) => `t.created_at >= ${n}::timestamptz`, filters.createdAt.gte);
  if (filters.createdAt.lt !== null) add((n) => `t.created_at < ${n}::timestamptz`, filters.createdAt.lt);
  return { conditions, values, ranged: filters.createdAt.gte !== null || filters.createdAt.lt !== null };
}

/** `order by` the question's keys, each in its direction: the field, then `created_at` and `id`. */
function orderOf({ column, descending }: HandQuestion['order']): string {
  const keys = column === 'created_at' ? ['created_at', 'id'] : [column, 'created_at', 'id'];
  return ` order by ${keys.map((key) => `t.${key}${descending ? ' desc' : ''}`).join(', ')}`;
}

/** The page, plus one row to tell whether a next one exists. */
export function handPage(question: HandQuestion, brandId: string): HandStatement {
  const { conditions, values, ranged } = whereOf(brandId, question);
  if (question.after !== null) {
    values.push(question.after.createdAt, question.after.id);
    conditions.push(`(t.created_at, t.id) ${question.order.descending ? '<' : '>'} ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  const order = orderOf(question.order);
  const window = ` limit ${question.limit + 1}${question.offset > 0 ? ` offset ${question.offset}` : ''}`;
  return {
    text: `select ${RECORD} from (select t.* from products t where ${conditions.join(' and ')}${order}${window}) t`
      + ` left join categories c on c.id = t.category_id and c.brand_id = $1${order}`,
    values,
    prepare: !ranged,
  };
}

/** Every product the question's filters match: `count(*)`. */
export function handCount(question: HandQuestion, brandId: string): HandStatement {
  const { conditions, values, ranged } = whereOf(brandId, question);
  return { text: `select count(*)::int as "total" from products t where ${conditions.join(' and ')}`, values, prepare: !ranged };
}

/** A counts question: the field counted by and the filters. */
export interface CountsQuestion {
  readonly by: string;
  readonly column: string;
  readonly statuses: HandQuestion['statuses'];
  readonly createdAt: HandQuestion['createdAt'];
}

export function parseCountsQuestion(query: Query): CountsQuestion {
  refuseUnknown(query, KNOWN_COUNTS);
  const by = one(query, 'by') ?? '';
  const column = COUNTED_COLUMNS[by];
  if (column === undefined) throw new FloorQuestionError(`by=${by}: the floor counts by ${Object.keys(COUNTED_COLUMNS).join(', ')}`);
  return { by, column, ...filtersOf(query) };
}

/** The matching products grouped by the field, the largest counts first, equal counts by value (null last). */
export function handCounts(question: CountsQuestion, brandId: string): HandStatement {
  const { conditions, values, ranged } = whereOf(brandId, question);
  return {
    text: `select t.${question.column} as "value", count(*)::int as "count" from products t where ${conditions.join(' and ')}`
      + ` group by t.${question.column} order by 2 desc, 1 asc nulls last`,
    values,
    prepare: !ranged,
  };
}

/** The counts body (CONTRACT.md §8) from the groups, largest first: the first `MAX_COUNTED_VALUES` listed, the rest added up. */
export function countsBody(by: string, groups: readonly { value: unknown; count: number }[]): { by: string; counts: { value: unknown; count: number }[]; otherItems: number; totalItems: number } {
  const counts = groups.slice(0, MAX_COUNTED_VALUES).map(({ value, count }) => ({ value, count }));
  const sum = (entries: readonly { count: number }[]): number => entries.reduce((total, entry) => total + entry.count, 0);
  return { by, counts, otherItems: sum(groups.slice(MAX_COUNTED_VALUES)), totalItems: sum(groups) };
}
