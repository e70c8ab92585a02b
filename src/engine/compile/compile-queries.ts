import type { CursorPosition } from '../request/cursor-codec.ts';
import { utcTimestampJsonSql } from './timestamp-sql.ts';
import type { Resource } from '../definition/resource.ts';
import { queryParts, quoteAlias, type QueryParts } from './query-parts.ts';
import { column, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { keysetBranches, orderBy, pageRows } from './keyset-page.ts';
import type { ListSort } from './list-sorts.ts';
import { SORT_KEYS } from './sort-keys.ts';
import { countsQuery, type CountsQuery } from './counts-query.ts';
import { compileChangedSince } from './changed-since.ts';
import { batchByRow, UUID_COLUMN, withBatch } from './batch-by-row.ts';
import { matchingQuery, type MatchingQuery } from './matching-query.ts';
import { planLabel } from './plan-label.ts';
import { CURRENT_SNAPSHOT_SQL } from './snapshot-text.ts';

/**
 * The SQL of one family, compiled once at boot. Identifiers come only from the
 * definition; every request value is a bound `?`. A query whose text does not
 * depend on the request (the get by id) is built once, so every request hands
 * the same string to the driver: its numbering and its prepared statement are
 * then found by a string the engine already hashed, not by hashing and
 * comparing kilobytes of SQL again (about 10 µs a get, docs/PERFORMANCE.md).
 *
 * Every list is ordered by `(created_at, id)`, or by another field and then
 * that pair, and paged by keyset at the database's full precision: the
 * hidden column `__cursorAt` carries the exact `created_at` of each row for
 * the next cursor, as JSON text, and `__sortKey` the sort field's value;
 * only the last row's are made a cursor's text (`cursorTimestamp`,
 * sort-keys.ts).
 */
/** A count, and how to tell later whether the rows it may read have changed since. */
export interface CountPlan {
  /** Answers `total`, and `snapshot`: the snapshot it ran in, as text (snapshot-text.ts). */
  readonly count: SqlFragment;
  /** Answers `changed`: whether any row the count may read was written by a transaction `snapshot` did not see; and `snapshot`, its own. */
  changedSince(snapshot: string): SqlFragment;
}

export interface ResourceQueries {
  /** One page in the sort's order, plus one row more to tell whether a next page exists. */
  page(args: { brandId: string; filters: Readonly<Record<string, unknown>>; after: CursorPosition | null; limit: number; sort: ListSort }): SqlFragment;
  /** The exact count of rows matching the filters, and how to tell whether it still holds later (`CountPlan`). */
  count(args: { brandId: string; filters: Readonly<Record<string, unknown>> }): CountPlan;
  /** Counts of the matching records by the values of a countable field (counts-query.ts). */
  counts: CountsQuery;
  /** The sort field's value of one record, as a page's `__sortKey` (for a cursor that carried only its hash). */
  sortKey(args: { brandId: string; id: string; sort: ListSort }): SqlFragment;
  /** One record by id (for the tenant family: the brand itself). */
  one(args: { brandId: string; id: string }): SqlFragment;
  /** Records whose field equals one of the values, in list order, at most `limit` (for includes; matching-query.ts). */
  matching: MatchingQuery;
  /** The rows of any of these queries as records (`QueryParts.decode`): new objects, the hidden columns left behind. */
  decode: QueryParts['decode'];
}

/** Name of the hidden column that carries a row's exact `created_at`; removed before responding. */
export const CURSOR_COLUMN = '__cursorAt';

/** Name of the hidden column that carries a row's sort value for the next cursor (sort-keys.ts), when the order is not by `created_at`. */
export const SORT_KEY_COLUMN = '__sortKey';

/**
 * One page in the sort's order after the cursor's row, plus one row more,
 * each with its exact `created_at` (and, sorted by another field, that
 * field's value as the cursor's text: sort-keys.ts). The page's rows are
 * chosen first, by keyset alone, in a subquery with the limit
 * (keyset-page.ts), and the record's joins (labels such as the category's
 * name) are made after, over those rows only. The limit is written in the
 * text (a checked integer: one statement per page size), so the generic
 * plan knows it as a custom plan does.
 *
 * On a prepared page the brand and the cursor's values are read through
 * scalar subqueries (`opaque`), so the planner never sees them, in a custom
 * plan as in a generic one: both estimate the same rows, and Postgres keeps
 * the generic plan (before, a custom plan of the big brand's deep page
 * always looked cheaper, and every execution was planned anew). The index
 * still serves the condition: the subqueries run once, before the scan. A
 * page planned per request (a search, a range) shows every value, as its
 * plan depends on them.
 */
function pageQuery({ resource, table, selectList, fromRows, filterConditions, scopes, preparable }: QueryParts): ResourceQueries['page'] {
  const label = planLabel(resource, 'page');
  const cursorSelect = `${utcTimestampJsonSql('t."created_at"')} as ${quoteAlias(CURSOR_COLUMN)}`;
  const keySelects = new Map<string, string>();
  const keySelect = (sort: ListSort): string => {
    let text = keySelects.get(sort.field.name);
    if (text === undefined) {
      text = sort.field.name === 'createdAt' ? '' : `, ${SORT_KEYS[sort.field.type]!.sql(column('t', sort.field.sourceColumn))} as ${quoteAlias(SORT_KEY_COLUMN)}`;
      keySelects.set(sort.field.name, text);
    }
    return text;
  };
  return ({ brandId, filters, after, limit, sort }) => {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`not a page size: ${limit}`);
    // Prepared: the brand and the cursor hidden from the planner. Planned per request: every value seen.
    const prepare = preparable(filters);
    const rows = pageRows({
      table,
      scopes: scopes(brandId, { opaque: prepare }),
      filters: filterConditions(brandId, filters),
      branches: keysetBranches({ sort, after, opaque: prepare }),
      sort,
      limit: limit + 1,
    });
    const source = fromRows(rows, brandId);
    return {
      sql: `select ${selectList}, ${cursorSelect}${keySelect(sort)} ${source.sql}${orderBy(sort, 't')}`,
      bindings: source.bindings,
      prepare,
      label,
    };
  };
}

/**
 * The count of a list and the snapshot it ran in, without the
 * record's to-one joins, which never change it; and the probe that tells
 * whether any row it may read has changed since (changed-since.ts).
 */
function countQuery({ resource, table, where, preparable }: QueryParts): ResourceQueries['count'] {
  const changedSince = compileChangedSince(resource);
  const label = planLabel(resource, 'count');
  return ({ brandId, filters }) => {
    const conditions = where(brandId, filters);
    return {
      count: {
        sql: `select count(*)::int as "total", ${CURRENT_SNAPSHOT_SQL} as "snapshot" from ${table} t where ${conditions.sql}`,
        bindings: conditions.bindings,
        prepare: preparable(filters),
        label,
      },
      changedSince: (snapshot) => changedSince({ brandId, snapshot }),
    };
  };
}

/** Stands for the brand while a get's bindings are laid out at boot. */
const BRAND_SLOT = '<brand>';

/**
 * One record by id; the tenant family's one record is the brand itself.
 * Gets of one family arriving together may share one statement (batch-by-row.ts).
 */
function oneQuery({ resource, selectList, from }: QueryParts): ResourceQueries['one'] {
  const byId = resource.scope === 'tenant' ? '' : ` and t."id" = ?`;
  const label = planLabel(resource, 'one');
  const scopeSql = scopeCondition({ alias: 't', scope: resource.scope, brandId: '' });
  const sql = `select ${selectList} ${from('').sql} where ${scopeSql.sql}${byId}`;
  // Every binding before the id is the brand (the joins' scopes, then the row's): checked here, once, so that a
  // request makes only its values, not the text and fragments again (a get is the smallest request there is).
  const brandBindings = [...from(BRAND_SLOT).bindings, ...scopeCondition({ alias: 't', scope: resource.scope, brandId: BRAND_SLOT }).bindings];
  if (brandBindings.some((value) => value !== BRAND_SLOT)) throw new Error(`${resource.path}: a get binds something other than the brand before its id`);
  const batch = batchByRow({ sql, columns: Array<typeof UUID_COLUMN>(brandBindings.length + (byId ? 1 : 0)).fill(UUID_COLUMN) });
  return ({ brandId, id }) => {
    const bindings: string[] = Array<string>(brandBindings.length).fill(brandId);
    if (byId) bindings.push(id);
    return withBatch({ sql, bindings, label }, batch);
  };
}

/** One record's sort value, read as a page reads it. */
function sortKeyQuery({ resource, table }: QueryParts): ResourceQueries['sortKey'] {
  const label = planLabel(resource, 'one');
  return ({ brandId, id, sort }) => {
    const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId });
    return {
      sql: `select ${SORT_KEYS[sort.field.type]!.sql(column('t', sort.field.sourceColumn))} as ${quoteAlias(SORT_KEY_COLUMN)} from ${table} t where ${scope.sql} and t."id" = ?`,
      bindings: [...scope.bindings, id],
      label,
    };
  };
}

export function compileQueries(resource: Resource): ResourceQueries {
  const parts = queryParts(resource);
  return {
    page: pageQuery(parts), count: countQuery(parts), counts: countsQuery(parts), sortKey: sortKeyQuery(parts), one: oneQuery(parts),
    matching: matchingQuery(parts), decode: parts.decode,
  };
}
