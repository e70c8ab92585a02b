import type { SqlFragment } from './sql-fragment.ts';

/**
 * Statements that several requests can share. A query whose every binding
 * is a UUID (a get by id: the brand, bound once per scope condition, and the
 * id) can run for many requests at once: each request's values become one
 * row of `unnest(...) with ordinality`, and the query itself runs once per
 * row in a lateral subquery, with that request's own values. So each
 * request's rows are read under its own brand's conditions, exactly as if it
 * had run alone, and come back tagged with its place in the batch
 * (`BATCH_COLUMN`): a row of one request can never be handed to another.
 */

/** Name of the hidden column that carries a batched row's request (1 for the first); removed before anyone sees the row. */
export const BATCH_COLUMN = '__batch';

/** How a query runs for many requests in one statement: `sql` takes, in order, one array per binding of the query (the column of every request's value). */
export interface BatchPlan {
  readonly sql: string;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The batched form of a query of `bindings` UUID placeholders (`sql`, with
 * knex's `?`; `\?` is a literal question mark and stays one).
 */
export function batchByRow(sql: string, bindings: number): BatchPlan {
  let seen = 0;
  const lateral = sql.replace(/\\\?|\?/g, (match) => (match === '\\?' ? match : `r."p${(seen += 1)}"`));
  if (seen !== bindings) throw new Error(`a batched query binds ${bindings} values, its text has ${seen} placeholders`);
  const columns = Array.from({ length: bindings }, (_, i) => `p${i + 1}`);
  return {
    sql:
      `select r."i" as "${BATCH_COLUMN}", q.* from unnest(${columns.map(() => '?::uuid[]').join(', ')}) with ordinality as r(${columns.join(', ')}, i)` +
      ` cross join lateral (${lateral}) q`,
  };
}

/** The query with its batch plan when every value it binds is a UUID (others run alone, and fail alone). */
export function withBatch(query: SqlFragment, batch: BatchPlan): SqlFragment & { readonly batch?: BatchPlan } {
  return query.bindings.every((value) => typeof value === 'string' && UUID_TEXT.test(value)) ? { ...query, batch } : query;
}
