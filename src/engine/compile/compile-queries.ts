import type { CursorPosition } from '../request/cursor-codec.ts';
import { cursorTimestampSql } from './timestamp-sql.ts';
import { FIELD_TYPES } from './field-types.ts';
import { MATCH_KINDS } from './match-kinds.ts';
import { quoteIdentifier } from '../definition/naming.ts';
import type { Field, Filter, Resource } from '../definition/resource.ts';
import { column, joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';

/**
 * The SQL of one family, compiled once at boot. Identifiers come only from the
 * definition; every request value is a bound `?`.
 *
 * Every list is ordered by `(created_at, id)` and paged by keyset on that pair
 * at the database's microsecond precision: the hidden column `__cursorAt`
 * carries the exact `created_at` of each row for the next cursor.
 */
export interface ResourceQueries {
  /** One page, plus one row more to tell whether a next page exists. */
  page(args: { brandId: string; filters: Readonly<Record<string, unknown>>; after: CursorPosition | null; limit: number }): SqlFragment;
  /** The exact count of rows matching the filters, and the snapshot it saw (`ExactCounts` reuses it while that holds). */
  count(args: { brandId: string; filters: Readonly<Record<string, unknown>> }): SqlFragment;
  /** One record by id (for the tenant family: the brand itself). */
  one(args: { brandId: string; id: string }): SqlFragment;
  /** Records whose field equals one of the values, in list order, at most `limit` (for includes). */
  matching(args: { brandId: string; field: string; values: readonly unknown[]; limit: number }): SqlFragment;
}

/** Name of the hidden column that carries a row's exact `created_at`; removed before responding. */
export const CURSOR_COLUMN = '__cursorAt';

const ALIAS = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
function quoteAlias(name: string): string {
  if (!ALIAS.test(name)) throw new Error(`not a safe SQL alias: ${name}`);
  return `"${name}"`;
}

const joinAlias = (name: string): string => `j_${name}`;

/** Where a field's value is read: this table (`t`) or its join. */
function fieldColumn(field: Field): string {
  return column(field.join ? joinAlias(field.join) : 't', field.sourceColumn);
}

export function compileQueries(resource: Resource): ResourceQueries {
  const table = quoteIdentifier(resource.table);
  const selectList = resource.recordFields
    .map((field) => `${FIELD_TYPES[field.type].read(fieldColumn(field))} as ${quoteAlias(field.name)}`)
    .join(', ');
  const cursorSelect = `${cursorTimestampSql('t."created_at"')} as ${quoteAlias(CURSOR_COLUMN)}`;
  const usedJoins = [...new Set(resource.recordFields.flatMap((field) => (field.join ? [field.join] : [])))].map(
    (name) => resource.joins[name]!,
  );
  const filtersByName = new Map<string, Filter>(resource.filters.map((filter) => [filter.name, filter]));
  const fieldsByName = new Map(resource.recordFields.map((field) => [field.name, field]));

  /**
   * `from <table> t left join ...`: joins are limited to rows the brand may
   * see. The text is built once; a request only supplies the brand, as often
   * as the joins' scope conditions bind it.
   */
  const joinClauses = usedJoins.map((join) => {
    const alias = joinAlias(join.name);
    const scope = scopeCondition({ alias, scope: join.scope, brandId: '' });
    return {
      sql: ` left join ${quoteIdentifier(join.table)} ${alias} on ${column(alias, join.foreignColumn)} = ${column('t', join.localColumn)} and ${scope.sql}`,
      brandBindings: scope.bindings.length,
    };
  });
  const fromSql = `from ${table} t${joinClauses.map((clause) => clause.sql).join('')}`;
  const from = (brandId: string): SqlFragment => ({
    sql: fromSql,
    bindings: joinClauses.flatMap((clause) => Array<string>(clause.brandBindings).fill(brandId)),
  });

  const where = (brandId: string, filters: Readonly<Record<string, unknown>>): SqlFragment =>
    joinFragments(
      [
        scopeCondition({ alias: 't', scope: resource.scope, brandId }),
        ...Object.entries(filters).map(([name, value]) => {
          const filter = filtersByName.get(name);
          if (!filter) throw new Error(`${resource.path}: no filter '${name}'`);
          return MATCH_KINDS[filter.match].where({ targets: filter.targets, joins: resource.joins, value, brandId });
        }),
      ],
      ' and ',
    );

  const ORDER = ' order by t."created_at", t."id"';
  /** Whether a list's page and count may be prepared: none of its filters needs a plan for its value. */
  const preparable = (filters: Readonly<Record<string, unknown>>): boolean =>
    Object.keys(filters).every((name) => !MATCH_KINDS[filtersByName.get(name)!.match].planPerValue);

  return {
    page({ brandId, filters, after, limit }) {
      const source = from(brandId);
      const conditions = where(brandId, filters);
      const keyset = after
        ? { sql: ' and (t."created_at", t."id") > (?::timestamptz, ?::uuid)', bindings: [after.createdAt, after.id] }
        : { sql: '', bindings: [] };
      return {
        sql: `select ${selectList}, ${cursorSelect} ${source.sql} where ${conditions.sql}${keyset.sql}${ORDER} limit ?`,
        bindings: [...source.bindings, ...conditions.bindings, ...keyset.bindings, limit + 1],
        prepare: preparable(filters),
      };
    },

    count({ brandId, filters }) {
      const conditions = where(brandId, filters);
      return {
        sql: `select count(*)::int as "total", pg_current_snapshot()::text as "snapshot" from ${table} t where ${conditions.sql}`,
        bindings: conditions.bindings,
        prepare: preparable(filters),
      };
    },

    one({ brandId, id }) {
      const source = from(brandId);
      const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId });
      const byId = resource.scope === 'tenant' ? '' : ` and t."id" = ?`;
      return {
        sql: `select ${selectList} ${source.sql} where ${scope.sql}${byId}`,
        bindings: [...source.bindings, ...scope.bindings, ...(byId ? [id] : [])],
      };
    },

    // The values go as one array (`= any(?)`), so a page's include is one statement whatever its number of keys.
    matching({ brandId, field, values, limit }) {
      const target = fieldsByName.get(field);
      if (!target) throw new Error(`${resource.path}: no field '${field}'`);
      const source = from(brandId);
      const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId });
      return {
        sql: `select ${selectList} ${source.sql} where ${scope.sql} and ${fieldColumn(target)} = any(?)${ORDER} limit ?`,
        bindings: [...source.bindings, ...scope.bindings, [...values], limit],
      };
    },
  };
}
