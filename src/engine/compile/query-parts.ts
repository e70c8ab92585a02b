import { FIELD_TYPES } from './field-types.ts';
import { MATCH_KINDS } from './match-kinds.ts';
import { quoteIdentifier } from '../definition/naming.ts';
import type { Field, Filter, Join, Resource } from '../definition/resource.ts';
import { column, joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';

/**
 * What every query of one family is built from, compiled once at boot:
 * identifiers come only from the definition, request values are bound `?`.
 */
export interface QueryParts {
  readonly resource: Resource;
  /** The family's table, quoted; queries alias it `t`. */
  readonly table: string;
  /** The record's fields, each read as its JSON value and named after the field. */
  readonly selectList: string;
  /** `from <table> t left join ...`, the brand bound once per join that needs it. */
  from(brandId: string): SqlFragment;
  /** `from (<rows>) t left join ...`: the same joins over rows chosen first (a page's keyset subquery). */
  fromRows(rows: SqlFragment, brandId: string): SqlFragment;
  /** The brand's rows, narrowed by each filter's predicate, joined with `and`; `opaque`: the brand hidden from the planner (`scopeCondition`). */
  where(brandId: string, filters: Readonly<Record<string, unknown>>, options?: { opaque?: boolean }): SqlFragment;
  /** Whether a list's page and count may be prepared: none of its filters needs a plan for its value. */
  preparable(filters: Readonly<Record<string, unknown>>): boolean;
  /** Where a record field's value is read; throws on a field the record lacks (a bug in the caller). */
  fieldColumn(name: string): string;
  /** Turns rows as the driver gives them into records, in place (JSON text into `JsonText`); for most families, nothing to do. */
  decode<R extends Record<string, unknown>>(rows: R[]): R[];
}

/** Every list's order, which keyset paging follows. */
export const LIST_ORDER = ' order by t."created_at", t."id"';

const ALIAS = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Quotes a column alias: a field name, or the engine's own. */
export function quoteAlias(name: string): string {
  if (!ALIAS.test(name)) throw new Error(`not a safe SQL alias: ${name}`);
  return `"${name}"`;
}

/** The alias a join's table has in every query of the family. */
export const joinAlias = (name: string): string => `j_${name}`;

/** The joins a record's fields are read from: a change to one of their rows changes the record. */
export function recordJoins(resource: Resource): Join[] {
  return [...new Set(resource.recordFields.flatMap((field) => (field.join ? [field.join] : [])))].map((name) => resource.joins[name]!);
}

/** Where a field's value is read: this table (`t`) or its join. */
function fieldColumn(field: Field): string {
  return column(field.join ? joinAlias(field.join) : 't', field.sourceColumn);
}

export function queryParts(resource: Resource): QueryParts {
  const filtersByName = new Map<string, Filter>(resource.filters.map((filter) => [filter.name, filter]));
  const fieldsByName = new Map(resource.recordFields.map((field) => [field.name, field]));
  const joinRows = fromClause(resource);
  return Object.freeze({
    resource,
    table: quoteIdentifier(resource.table),
    selectList: resource.recordFields
      .map((field) => `${FIELD_TYPES[field.type].read(fieldColumn(field))} as ${quoteAlias(field.name)}`)
      .join(', '),
    from: (brandId: string): SqlFragment => joinRows({ sql: quoteIdentifier(resource.table), bindings: [] }, brandId),
    fromRows: (rows: SqlFragment, brandId: string): SqlFragment => joinRows({ sql: `(${rows.sql})`, bindings: rows.bindings }, brandId),
    where: (brandId: string, filters: Readonly<Record<string, unknown>>, { opaque = false } = {}): SqlFragment =>
      joinFragments(
        [
          scopeCondition({ alias: 't', scope: resource.scope, brandId, opaque }),
          ...Object.entries(filters).map(([name, value]) => {
            const filter = filtersByName.get(name);
            if (!filter) throw new Error(`${resource.path}: no filter '${name}'`);
            return MATCH_KINDS[filter.match].where({ targets: filter.targets, joins: resource.joins, value, brandId });
          }),
        ],
        ' and ',
      ),
    preparable: (filters: Readonly<Record<string, unknown>>): boolean =>
      Object.keys(filters).every((name) => !MATCH_KINDS[filtersByName.get(name)!.match].planPerValue),
    decode: rowDecoder(resource),
    fieldColumn: (name: string): string => {
      const field = fieldsByName.get(name);
      if (!field) throw new Error(`${resource.path}: no field '${name}'`);
      return fieldColumn(field);
    },
  });
}

/** The fields whose type decodes its value, each with its decoder; rows of a family without any pass as they are. */
function rowDecoder(resource: Resource): QueryParts['decode'] {
  const decoded = resource.recordFields.flatMap((field) => {
    const { decode } = FIELD_TYPES[field.type];
    return decode ? [{ name: field.name, decode }] : [];
  });
  if (decoded.length === 0) return (rows) => rows;
  return (rows) => {
    for (const row of rows) {
      for (const { name, decode } of decoded) {
        const value = row[name];
        // Null stays null; only the driver's text is decoded.
        if (typeof value === 'string') (row as Record<string, unknown>)[name] = decode(value);
      }
    }
    return rows;
  };
}

/**
 * `from <rows> t left join ...`: joins are limited to rows the brand may
 * see. The joins' text is built once; a request only supplies the rows (the
 * table, or a subquery) and the brand, as often as the joins' scope
 * conditions bind it.
 */
function fromClause(resource: Resource): (rows: SqlFragment, brandId: string) => SqlFragment {
  const joinClauses = recordJoins(resource).map((join) => {
    const alias = joinAlias(join.name);
    const scope = scopeCondition({ alias, scope: join.scope, brandId: '' });
    return {
      sql: ` left join ${quoteIdentifier(join.table)} ${alias} on ${column(alias, join.foreignColumn)} = ${column('t', join.localColumn)} and ${scope.sql}`,
      brandBindings: scope.bindings.length,
    };
  });
  const joinsSql = joinClauses.map((clause) => clause.sql).join('');
  return (rows, brandId) => ({
    sql: `from ${rows.sql} t${joinsSql}`,
    bindings: [...rows.bindings, ...joinClauses.flatMap((clause) => Array<string>(clause.brandBindings).fill(brandId))],
  });
}
