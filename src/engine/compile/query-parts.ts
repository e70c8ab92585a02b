import { FIELD_TYPES } from './field-types.ts';
import { MATCH_KINDS } from './match-kinds.ts';
import { quoteIdentifier } from '../definition/naming.ts';
import type { Field, Filter, Join, Resource } from '../definition/resource.ts';
import { column, joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import type { ScopeRange } from './keyset-page.ts';

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
  /** Each filter's predicate, joined with `and`: empty text for none. */
  filterConditions(brandId: string, filters: Readonly<Record<string, unknown>>): SqlFragment;
  /**
   * The brand's rows as index ranges, one condition each: a brand's family
   * has one; a shared family two, the brand's rows and those of no brand,
   * so that each is read in index order (keyset-page.ts).
   */
  scopes(brandId: string, options?: { opaque?: boolean }): ScopeRange[];
  /** Whether a list's page and count may be prepared: none of its filters needs a plan for its value. */
  preparable(filters: Readonly<Record<string, unknown>>): boolean;
  /** Where a record field's value is read; throws on a field the record lacks (a bug in the caller). */
  fieldColumn(name: string): string;
  /** One row as the driver gives it, as its record (`recordMaker`). */
  record(row: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** Rows as the driver gives them, as records: each a new object (`record`). */
  decode(rows: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown>[];
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
  const record = recordMaker(resource);
  const predicates = (brandId: string, filters: Readonly<Record<string, unknown>>): SqlFragment[] =>
    Object.entries(filters).map(([name, value]) => {
      const filter = filtersByName.get(name);
      if (!filter) throw new Error(`${resource.path}: no filter '${name}'`);
      return MATCH_KINDS[filter.match].where({ targets: filter.targets, joins: resource.joins, value, brandId });
    });
  return Object.freeze({
    resource,
    table: quoteIdentifier(resource.table),
    selectList: resource.recordFields
      .map((field) => `${FIELD_TYPES[field.type].read(fieldColumn(field))} as ${quoteAlias(field.name)}`)
      .join(', '),
    from: (brandId: string): SqlFragment => joinRows({ sql: quoteIdentifier(resource.table), bindings: [] }, brandId),
    fromRows: (rows: SqlFragment, brandId: string): SqlFragment => joinRows({ sql: `(${rows.sql})`, bindings: rows.bindings }, brandId),
    where: (brandId: string, filters: Readonly<Record<string, unknown>>, { opaque = false } = {}): SqlFragment =>
      joinFragments([scopeCondition({ alias: 't', scope: resource.scope, brandId, opaque }), ...predicates(brandId, filters)], ' and '),
    filterConditions: (brandId: string, filters: Readonly<Record<string, unknown>>): SqlFragment => joinFragments(predicates(brandId, filters), ' and '),
    scopes: (brandId: string, { opaque = false } = {}): ScopeRange[] => {
      if (resource.scope !== 'shared') return [scopeCondition({ alias: 't', scope: resource.scope, brandId, opaque })];
      return [scopeCondition({ alias: 't', scope: 'brand', brandId, opaque }), { sql: 't."brand_id" is null', bindings: [], leading: 'brand_id' }];
    },
    preparable: (filters: Readonly<Record<string, unknown>>): boolean =>
      Object.keys(filters).every((name) => !MATCH_KINDS[filtersByName.get(name)!.match].planPerValue),
    record,
    decode: (rows: readonly Readonly<Record<string, unknown>>[]) => rows.map(record),
    fieldColumn: (name: string): string => {
      const field = fieldsByName.get(name);
      if (!field) throw new Error(`${resource.path}: no field '${name}'`);
      return fieldColumn(field);
    },
  });
}

/**
 * A row as the driver gives it, made a record: a new object with the
 * record's fields only, in the record's order, each value as the record has
 * it (`FieldTypeImpl.decode`: a timestamp's JSON text made the record's text,
 * JSON text kept whole; null stays null). The engine's hidden columns (a
 * page's cursor, a batch's place, a change's id) are left on the row, never
 * deleted from it: on Node 22 and 24 deleting a property turns an object into a
 * slow dictionary, which `JSON.stringify` and every later read then pay for
 * (docs/PERFORMANCE.md, "Records made, not trimmed").
 *
 * The maker is compiled once per family into one object literal, so every
 * record of a family has one shape from its birth. Field names are camelCase
 * identifiers (normalize-fields.ts) and are written as JSON strings.
 */
function recordMaker(resource: Resource): (row: Readonly<Record<string, unknown>>) => Record<string, unknown> {
  const decoders: ((text: string) => unknown)[] = [];
  const entries = resource.recordFields.map((field) => {
    const key = JSON.stringify(field.name);
    const { decode } = FIELD_TYPES[field.type];
    if (!decode) return `${key}: row[${key}]`;
    decoders.push(decode);
    return `${key}: typeof row[${key}] === 'string' ? decoders[${decoders.length - 1}](row[${key}]) : row[${key}]`;
  });
  return new Function('decoders', `return (row) => ({ ${entries.join(', ')} });`)(decoders) as (row: Readonly<Record<string, unknown>>) => Record<string, unknown>;
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
