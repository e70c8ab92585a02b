import type { CursorPosition } from '../request/cursor-codec.ts';
import { FIELD_TYPES } from './field-types.ts';
import type { ListSort } from './list-sorts.ts';
import { column, joinFragments, type SqlFragment } from './sql-fragment.ts';

/**
 * The rows of one page in any order a list takes, read from an index and
 * after a cursor by keyset (CONTRACT.md §3 and §8).
 *
 * An order is `(field, created_at, id)`, all ascending or all descending,
 * which the index `(brand_id, field, created_at, id)` gives read forward or
 * backward: Postgres's own `asc nulls last` and `desc nulls first`, exactly
 * the contract's null placement. After a cursor, the next rows are a row
 * comparison, `(field, created_at, id) > (?, ?, ?)`, which the index
 * answers from the cursor's place on. A null makes a row comparison null, so
 * a nullable field's next rows are up to two ranges, one of them the
 * nulls or the values taken whole:
 *
 * | cursor's value | ascending (nulls last)              | descending (nulls first)             |
 * |----------------|-------------------------------------|--------------------------------------|
 * | a value        | `(f, c, id) > (v, c0, id0)`, then every null | `(f, c, id) < (v, c0, id0)`    |
 * | null           | nulls with `(c, id) > (c0, id0)`    | nulls with `(c, id) < (c0, id0)`, then every value |
 *
 * A shared family's rows are the brand's and those of no brand: two ranges
 * of its indexes again. So a page is one ordered range, or a few, each read
 * in order up to the page's size and merged (`union all` of ordered,
 * limited branches: Postgres's Merge Append), never a sort of the table's
 * rows.
 */

/**
 * One range of the brand's rows: its condition, and a column the range
 * holds constant that its index leads with, if it must be named in the
 * order for the index to serve it. (A shared family's rows of no brand are
 * `brand_id is null`: Postgres reads `(brand_id, created_at, id)` in order
 * for them only when asked to order by `brand_id` first; an equality on the
 * brand needs no such help.)
 */
export interface ScopeRange extends SqlFragment {
  readonly leading?: string;
}

/** The clause that orders rows aliased `alias` in a sort's direction, after a column the rows hold constant, if given. */
export function orderBy(sort: ListSort, alias: string, leading?: string): string {
  const direction = sort.descending ? ' desc' : '';
  const keys = sort.field.name === 'createdAt' ? ['created_at', 'id'] : [sort.field.sourceColumn, 'created_at', 'id'];
  return ` order by ${[...(leading ? [leading] : []), ...keys].map((key) => `${column(alias, key)}${direction}`).join(', ')}`;
}

const TRUE: SqlFragment = { sql: '', bindings: [] };

/**
 * The keyset conditions after a cursor, one per range the rest of the walk
 * is read from (the table above); one empty condition on a first page. With
 * `opaque`, each value is read through a scalar subquery, hidden from the
 * planner as the brand is (compile-queries.ts, `keysetAfter`).
 */
export function keysetBranches({ sort, after, opaque }: { sort: ListSort; after: CursorPosition | null; opaque: boolean }): SqlFragment[] {
  if (!after) return [TRUE];
  const op = sort.descending ? '<' : '>';
  const value = (cast: string): string => (opaque ? `(select ?::${cast})` : `?::${cast}`);
  const tail: SqlFragment = { sql: `(t."created_at", t."id") ${op} (${value('timestamptz')}, ${value('uuid')})`, bindings: [after.createdAt, after.id] };
  if (sort.field.name === 'createdAt') return [tail];
  const field = column('t', sort.field.sourceColumn);
  const key = after.key ?? null;
  if (key !== null) {
    const cast = FIELD_TYPES[sort.field.type].columnType;
    const rest: SqlFragment = {
      sql: `(${field}, t."created_at", t."id") ${op} (${value(cast)}, ${value('timestamptz')}, ${value('uuid')})`,
      bindings: [key, after.createdAt, after.id],
    };
    return sort.descending || !sort.field.nullable ? [rest] : [rest, { sql: `${field} is null`, bindings: [] }];
  }
  const nulls: SqlFragment = { sql: `${field} is null and ${tail.sql}`, bindings: tail.bindings };
  return sort.descending ? [nulls, { sql: `${field} is not null`, bindings: [] }] : [nulls];
}

/**
 * The page's rows (`select t.*`), at most `limit` of them: one ordered,
 * limited range for each pair of a scope condition and a keyset condition,
 * merged in order when there are several. With one, the statement is the
 * plain `where ... order by ... limit` it has always been.
 */
export function pageRows({ table, scopes, filters, branches, sort, limit }: {
  /** The family's table, quoted. */
  table: string;
  /** The rows the brand sees, one condition per range (a shared family has two). */
  scopes: readonly ScopeRange[];
  /** The request's filters, joined with `and` (empty for none). */
  filters: SqlFragment;
  branches: readonly SqlFragment[];
  sort: ListSort;
  limit: number;
}): SqlFragment {
  const ranges = scopes.flatMap((scope) => branches.map((branch) => {
    const where = joinFragments([scope, filters, branch].filter((part) => part.sql !== ''), ' and ');
    return { sql: `select t.* from ${table} t where ${where.sql}${orderBy(sort, 't', scope.leading)} limit ${limit}`, bindings: where.bindings };
  }));
  if (ranges.length === 1) return ranges[0]!;
  const merged = joinFragments(ranges.map((range) => ({ sql: `(${range.sql})`, bindings: range.bindings })), ' union all ');
  return { sql: `select u.* from (${merged.sql}) u${orderBy(sort, 'u')} limit ${limit}`, bindings: merged.bindings };
}
