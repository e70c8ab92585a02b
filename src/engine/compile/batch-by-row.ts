import type { SqlFragment } from './sql-fragment.ts';

/**
 * Statements that several requests can share. A query whose bindings can
 * all travel in a batch (a get by id: the brand, bound once per scope
 * condition, and the id; an include: the brands, the keys, the limit) can
 * run for many requests at once: each request's values become one row of
 * `unnest(...) with ordinality`, and the query itself runs once per row in a
 * lateral subquery, with that request's own values. So each request's rows
 * are read under its own brand's conditions, exactly as if it had run alone,
 * and come back tagged with its place in the batch (`BATCH_COLUMN`): a row of
 * one request can never be handed to another.
 */

/** Name of the hidden column that carries a batched row's request (1 for the first); its records are made without it (query-parts.ts). */
export const BATCH_COLUMN = '__batch';

/** Name of the hidden column that carries a row's place in its request's answer (1 for the first), in a batch of an ordered query; left behind like `BATCH_COLUMN`. */
export const PLACE_COLUMN = '__place';

/**
 * How one binding travels in a batch. A scalar goes as one element of a
 * `type[]` column. An array (the keys of an include) goes as its array
 * literal in a `text[]` column and is cast back to `type[]` inside the
 * lateral query: Postgres has no arrays of arrays of different lengths, and
 * the statement's text stays the same whatever the number of requests.
 */
export interface BatchColumn {
  /** SQL type of the value, or of each element of an array; the engine's own names, never a request's. */
  readonly type: string;
  readonly array?: boolean;
  /**
   * Whether a value (an array's element) certainly casts to `type`. A
   * request joins a batch only then: a value that failed its cast would fail
   * the statement, and with it every other request it carried.
   */
  accepts(value: unknown): boolean;
}

/** How a query runs for many requests in one statement: `sql` takes, in order, one array per binding of the query (the column of every request's value). */
export interface BatchPlan {
  readonly sql: string;
  readonly columns: readonly BatchColumn[];
  /** A request's bindings as they travel in the batch (an array as its literal); made only when a batch forms, so a request alone never pays for it. */
  travel(bindings: readonly unknown[]): readonly unknown[];
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID as text: a brand, an id. */
export const UUID_COLUMN: BatchColumn = Object.freeze({ type: 'uuid', accepts: (value: unknown) => typeof value === 'string' && UUID_TEXT.test(value) });

/** A row count (a limit). */
export const COUNT_COLUMN: BatchColumn = Object.freeze({
  type: 'int',
  accepts: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 2_147_483_647,
});

/**
 * The batched form of `sql` (with knex's `?`; `\?` is a literal question mark
 * and stays one), one column per placeholder. `ordered`: the query gives
 * each row's place in its answer as `PLACE_COLUMN` (a `row_number()` over
 * its own order), and the batch returns the rows in that order within each
 * request, not in whatever order the join produced them.
 */
export function batchByRow({ sql, columns, ordered = false }: { sql: string; columns: readonly BatchColumn[]; ordered?: boolean }): BatchPlan {
  let seen = 0;
  const lateral = sql.replace(/\\\?|\?/g, (match) => {
    if (match === '\\?') return match;
    const column = columns[seen];
    seen += 1;
    return column?.array ? `r."p${seen}"::${column.type}[]` : `r."p${seen}"`;
  });
  if (seen !== columns.length) throw new Error(`a batched query binds ${columns.length} values, its text has ${seen} placeholders`);
  const names = columns.map((_, i) => `p${i + 1}`);
  const arrays = columns.map((column) => (column.array ? '?::text[]' : `?::${column.type}[]`));
  const travelling = columns.some((column) => column.array);
  return {
    sql:
      `select q.*, r."i" as "${BATCH_COLUMN}" from unnest(${arrays.join(', ')}) with ordinality as r(${names.join(', ')}, i)` +
      ` cross join lateral (${lateral}) q${ordered ? ` order by r."i", q."${PLACE_COLUMN}"` : ''}`,
    columns,
    travel: travelling ? (bindings) => bindings.map((value, k) => (columns[k]?.array ? arrayLiteral(value as unknown[]) : value)) : (bindings) => bindings,
  };
}

/**
 * The query with its batch plan (`SqlFragment.batch`) when every value it
 * binds can travel; others run alone, and fail alone.
 */
export function withBatch(query: SqlFragment, plan: BatchPlan): SqlFragment {
  const { bindings } = query;
  if (bindings.length !== plan.columns.length) return query;
  for (let k = 0; k < bindings.length; k += 1) {
    const column = plan.columns[k]!;
    const value = bindings[k];
    const travels = column.array ? Array.isArray(value) && value.every((element) => column.accepts(element)) : column.accepts(value);
    if (!travels) return query;
  }
  return { ...query, batch: plan };
}

/** Postgres's text of a one-dimensional array: every element quoted, `"` and `\` escaped (as node-postgres writes an array value). */
export function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((value) => `"${String(value).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}
