import { DefinitionError } from './definition-error.ts';
import { didYouMean } from './did-you-mean.ts';
import { FIELD_TYPES } from '../compile/field-types.ts';
import { MATCH_KINDS } from '../compile/match-kinds.ts';
import { SQL_IDENTIFIER, toSnakeCase, toTitle } from './naming.ts';
import type { Field, Filter, FilterTarget, Include, Join, Resource } from './resource.ts';
import type {
  FieldDefinition,
  FilterDefinition,
  IncludeDefinition,
  JoinDefinition,
  ResourceDefinition,
  Scope,
} from './resource-definition.ts';

/**
 * Filters the engine gives every list whose records carry the field, so a
 * sync can read only what was created or changed since its last run.
 */
export const SYNC_FILTERS: readonly { readonly name: string; readonly field: string }[] = Object.freeze([
  { name: 'createdSince', field: 'createdAt' },
  { name: 'updatedSince', field: 'updatedAt' },
]);

/** Query parameters the engine owns on every list; a filter may not take these names. */
export const RESERVED_PARAMETERS: readonly string[] = ['cursor', 'limit', 'include', 'fields', ...SYNC_FILTERS.map((filter) => filter.name)];

const SCOPES: readonly Scope[] = ['brand', 'shared', 'tenant'];
const PATH_SHAPE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const NAME_SHAPE = /^[a-z][a-zA-Z0-9]*$/;

const RESOURCE_KEYS = ['path', 'table', 'scope', 'title', 'description', 'fields', 'joins', 'filters', 'includes'];
const FIELD_KEYS = ['type', 'column', 'from', 'nullable', 'values', 'references', 'unique', 'hidden', 'description'];
const JOIN_KEYS = ['table', 'on'];
const FILTER_KEYS = ['match', 'field', 'fields', 'column', 'type', 'values', 'description'];
const INCLUDE_KEYS = ['resource', 'on', 'description'];

/** The table a definition reads, before normalization. */
export function tableOf(definition: ResourceDefinition): string {
  return definition.table ?? toSnakeCase(definition.path);
}

interface Context {
  /** Every definition of the registry by path, for cross-references. */
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
}

/**
 * Checks a definition and fills its defaults. Every mistake throws a
 * `DefinitionError` naming the family and the key, with a suggestion where one
 * is close.
 */
export function normalizeResource(definition: ResourceDefinition, context: Context): Resource {
  const family = String(definition.path);
  const fail = (key: string, message: string): never => {
    throw new DefinitionError({ family, key, message });
  };
  const oneOf = ({ key, value, allowed, what }: { key: string; value: string; allowed: Iterable<string>; what: string }): void => {
    const list = [...allowed];
    if (!list.includes(value)) fail(key, `unknown ${what} '${value}'${didYouMean(value, list)}`);
  };
  const onlyKeys = (key: string, object: object, allowed: readonly string[]): void => {
    for (const name of Object.keys(object)) oneOf({ key: `${key}${key ? '.' : ''}${name}`, value: name, allowed, what: 'key' });
  };

  onlyKeys('', definition, RESOURCE_KEYS);
  if (!PATH_SHAPE.test(family)) fail('path', `'${family}' is not a kebab-case path`);
  const table = tableOf(definition);
  if (!SQL_IDENTIFIER.test(table)) fail('table', `'${table}' is not a lower-case SQL identifier`);
  oneOf({ key: 'scope', value: definition.scope, allowed: SCOPES, what: 'scope' });

  const joins = normalizeJoins(definition.joins ?? {});
  const fields = normalizeFields(definition.fields ?? {});
  const byName = new Map(fields.map((field) => [field.name, field]));

  for (const join of Object.values(joins)) {
    if (!fields.some((field) => field.column === join.localColumn)) {
      fail(`joins.${join.name}.on`, `'${join.localColumn}' is not a column of ${table}`);
    }
  }
  for (const [name, type] of [['id', 'uuid'], ['createdAt', 'timestamp']] as const) {
    const field = byName.get(name);
    if (!field || field.type !== type || field.nullable || field.join) {
      fail(`fields.${name}`, `every family needs a non-null ${type} column field '${name}' (keys and list order)`);
    }
  }

  return Object.freeze({
    path: family,
    table,
    scope: definition.scope,
    title: definition.title ?? toTitle(family),
    description: definition.description ?? null,
    fields,
    recordFields: Object.freeze(fields.filter((field) => !field.hidden)),
    joins,
    filters: normalizeFilters(definition.filters ?? {}),
    includes: normalizeIncludes(definition.includes ?? {}),
  });

  function normalizeJoins(declared: Readonly<Record<string, JoinDefinition>>): Readonly<Record<string, Join>> {
    const out: Record<string, Join> = {};
    for (const [name, join] of Object.entries(declared)) {
      const key = `joins.${name}`;
      onlyKeys(key, join, JOIN_KEYS);
      if (!NAME_SHAPE.test(name)) fail(key, 'a join name is camelCase');
      const target = [...context.definitions.values()].find((other) => tableOf(other) === join.table);
      if (!target) {
        fail(`${key}.table`, `no family reads table '${join.table}'${didYouMean(join.table, [...context.definitions.values()].map(tableOf))}`);
      }
      const pairs = Object.entries(join.on ?? {});
      if (pairs.length !== 1) fail(`${key}.on`, 'name exactly one { localColumn: joinedColumn } pair');
      const [localColumn, foreignColumn] = pairs[0]!;
      for (const column of [localColumn, foreignColumn]) {
        if (!SQL_IDENTIFIER.test(column)) fail(`${key}.on`, `'${column}' is not a column name`);
      }
      out[name] = Object.freeze({ name, table: join.table, localColumn, foreignColumn, scope: target!.scope });
    }
    return Object.freeze(out);
  }

  function normalizeFields(declared: Readonly<Record<string, FieldDefinition>>): readonly Field[] {
    if (Object.keys(declared).length === 0) fail('fields', 'a family needs fields');
    const columns = new Set<string>();
    const out = Object.entries(declared).map(([name, field]): Field => {
      const key = `fields.${name}`;
      onlyKeys(key, field, FIELD_KEYS);
      if (!NAME_SHAPE.test(name)) fail(key, 'a field name is camelCase');
      oneOf({ key: `${key}.type`, value: field.type, allowed: Object.keys(FIELD_TYPES), what: 'type' });
      const values = normalizeValues({ key, type: field.type, values: field.values });
      if (field.references !== undefined && !context.definitions.has(field.references)) {
        fail(`${key}.references`, `no family '${field.references}'${didYouMean(field.references, context.definitions.keys())}`);
      }
      let joinName: string | null = null;
      let sourceColumn: string;
      if (field.from !== undefined) {
        if (field.column !== undefined || field.references !== undefined || field.unique !== undefined) {
          fail(key, "a field read 'from' a join has no column, references or unique of its own");
        }
        const [join, column, ...rest] = field.from.split('.');
        if (!join || !column || rest.length > 0) fail(`${key}.from`, "write '<join>.<column>'");
        if (!Object.hasOwn(joins, join!)) fail(`${key}.from`, `no join '${join}'${didYouMean(join!, Object.keys(joins))}`);
        if (!SQL_IDENTIFIER.test(column!)) fail(`${key}.from`, `'${column}' is not a column name`);
        joinName = join!;
        sourceColumn = column!;
      } else {
        sourceColumn = field.column ?? toSnakeCase(name);
        if (!SQL_IDENTIFIER.test(sourceColumn)) fail(`${key}.column`, `'${sourceColumn}' is not a column name`);
        if (sourceColumn === 'brand_id') fail(`${key}.column`, 'brand_id belongs to the engine and is never a field');
        if (columns.has(sourceColumn)) fail(`${key}.column`, `column '${sourceColumn}' is declared twice`);
        columns.add(sourceColumn);
      }
      return Object.freeze({
        name,
        type: field.type,
        column: joinName ? null : sourceColumn,
        join: joinName,
        sourceColumn,
        nullable: name === 'id' ? false : (field.nullable ?? true),
        values,
        references: field.references ?? null,
        unique: field.unique ?? false,
        hidden: field.hidden ?? false,
        description: field.description ?? null,
      });
    });
    return Object.freeze(out);
  }

  function normalizeValues({ key, type, values }: { key: string; type: string; values: readonly string[] | undefined }): readonly string[] | null {
    if (type === 'enum') {
      if (!values || values.length === 0) fail(`${key}.values`, 'an enum lists its values');
      return Object.freeze([...values!]);
    }
    if (values !== undefined) fail(`${key}.values`, "only an 'enum' has values");
    return null;
  }

  function normalizeFilters(declared: Readonly<Record<string, FilterDefinition>>): readonly Filter[] {
    const out = Object.entries(declared).map(([name, filter]): Filter => {
      const key = `filters.${name}`;
      onlyKeys(key, filter, FILTER_KEYS);
      if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(name)) fail(key, 'a filter name is camelCase');
      if (RESERVED_PARAMETERS.includes(name)) fail(key, `'${name}' is a parameter of every list`);
      oneOf({ key: `${key}.match`, value: filter.match, allowed: Object.keys(MATCH_KINDS), what: 'match kind' });
      const given = ['field', 'fields', 'column'].filter((k) => filter[k as keyof FilterDefinition] !== undefined);
      if (given.length !== 1) fail(key, "give exactly one of 'field', 'fields' or 'column'");
      const targets = filterTargets(key, filter);
      const problem = MATCH_KINDS[filter.match].check(targets);
      if (problem) fail(key, problem);
      return Object.freeze({ name, match: filter.match, targets, description: filter.description ?? null });
    });
    // The tenant family has no list to filter.
    for (const sync of definition.scope === 'tenant' ? [] : SYNC_FILTERS) {
      const field = fields.find((f) => f.name === sync.field && f.type === 'timestamp' && f.join === null);
      if (!field) continue;
      const target = Object.freeze({ label: field.name, join: null, column: field.sourceColumn, type: field.type, values: null });
      out.push(Object.freeze({ name: sync.name, match: 'since', targets: Object.freeze([target]), description: null }));
    }
    return Object.freeze(out);
  }

  function filterTargets(key: string, filter: FilterDefinition): readonly FilterTarget[] {
    if (filter.column !== undefined) {
      const [join, column, ...rest] = filter.column.split('.');
      if (!join || !column || rest.length > 0 || !Object.hasOwn(joins, join)) {
        fail(`${key}.column`, `write '<join>.<column>' with a declared join${didYouMean(join ?? '', Object.keys(joins))}`);
      }
      if (!SQL_IDENTIFIER.test(column!)) fail(`${key}.column`, `'${column}' is not a column name`);
      if (!filter.type) fail(`${key}.type`, 'a filter on a joined column names its type');
      oneOf({ key: `${key}.type`, value: filter.type!, allowed: Object.keys(FIELD_TYPES), what: 'type' });
      const values = normalizeValues({ key, type: filter.type!, values: filter.values });
      return Object.freeze([Object.freeze({ label: filter.column, join: join!, column: column!, type: filter.type!, values })]);
    }
    if (filter.type !== undefined || filter.values !== undefined) {
      fail(key, "'type' and 'values' come from the field; only a 'column' filter declares them");
    }
    const names = filter.field !== undefined ? [filter.field] : [...(filter.fields ?? [])];
    if (names.length === 0) fail(`${key}.fields`, 'name at least one field');
    return Object.freeze(
      names.map((name) => {
        const field = fields.find((f) => f.name === name);
        if (!field) fail(key, `no field '${name}'${didYouMean(name, fields.map((f) => f.name))}`);
        return Object.freeze({ label: name, join: field!.join, column: field!.sourceColumn, type: field!.type, values: field!.values });
      }),
    );
  }

  function normalizeIncludes(declared: Readonly<Record<string, IncludeDefinition>>): readonly Include[] {
    const out = Object.entries(declared).map(([name, include]): Include => {
      const key = `includes.${name}`;
      onlyKeys(key, include, INCLUDE_KEYS);
      if (!NAME_SHAPE.test(name)) fail(key, 'an include name is camelCase');
      if (fields.some((field) => field.name === name)) fail(key, 'an include cannot take the name of a field');
      const related = context.definitions.get(include.resource);
      if (!related) fail(`${key}.resource`, `no family '${include.resource}'${didYouMean(include.resource, context.definitions.keys())}`);
      const pairs = Object.entries(include.on ?? {});
      if (pairs.length !== 1) fail(`${key}.on`, 'name exactly one { localField: relatedField } pair');
      const [localField, remoteField] = pairs[0]!;
      const local = fields.find((f) => f.name === localField);
      if (!local || local.hidden) {
        fail(`${key}.on`, `'${localField}' is not a field of the record${didYouMean(localField, fields.map((f) => f.name))}`);
      }
      const remote = Object.hasOwn(related!.fields, remoteField) ? related!.fields[remoteField] : undefined;
      if (!remote || remote.hidden) {
        fail(`${key}.on`, `'${remoteField}' is not a field of ${include.resource}${didYouMean(remoteField, Object.keys(related!.fields))}`);
      }
      return Object.freeze({
        name,
        resource: include.resource,
        localField,
        remoteField,
        cardinality: remoteField === 'id' ? 'one' : 'many',
        description: include.description ?? null,
      });
    });
    return Object.freeze(out);
  }
}
