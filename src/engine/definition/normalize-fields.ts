import type { DefinitionChecks } from './definition-checks.ts';
import { didYouMean } from './did-you-mean.ts';
import { FIELD_TYPES } from '../compile/field-types.ts';
import { NAME_SHAPE, SQL_IDENTIFIER, toSnakeCase } from './naming.ts';
import { normalizeValues } from './normalize-values.ts';
import type { Field, Join } from './resource.ts';
import type { FieldDefinition, ResourceDefinition } from './resource-definition.ts';

const FIELD_KEYS = ['type', 'column', 'from', 'nullable', 'values', 'references', 'unique', 'hidden', 'description'];

interface FieldsContext {
  /** The family's joins, already normalized: a field may be read `from` one. */
  readonly joins: Readonly<Record<string, Join>>;
  /** Every definition of the registry by path, for `references`. */
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
  readonly checks: DefinitionChecks;
}

/** Where a field is read: a column of this table (`join` null), or one of a join. */
interface FieldSource {
  readonly join: string | null;
  readonly sourceColumn: string;
}

/**
 * A family's fields in declared order, hidden ones included, with their
 * columns and defaults filled in. No two fields may read the same column.
 */
export function normalizeFields({ declared, ...context }: FieldsContext & {
  declared: Readonly<Record<string, FieldDefinition>>;
}): readonly Field[] {
  if (Object.keys(declared).length === 0) context.checks.fail('fields', 'a family needs fields');
  const columns = new Set<string>();
  return Object.freeze(Object.entries(declared).map(([name, field]) => normalizeField({ name, field, columns, ...context })));
}

function normalizeField({ name, field, columns, joins, definitions, checks }: FieldsContext & {
  name: string;
  field: FieldDefinition;
  /** Columns of this table taken by the fields before this one. */
  columns: Set<string>;
}): Field {
  const key = `fields.${name}`;
  checks.onlyKeys({ key, object: field, allowed: FIELD_KEYS });
  if (!NAME_SHAPE.test(name)) checks.fail(key, 'a field name is camelCase');
  checks.oneOf({ key: `${key}.type`, value: field.type, allowed: Object.keys(FIELD_TYPES), what: 'type' });
  const values = normalizeValues({ key, type: field.type, values: field.values, checks });
  if (field.references !== undefined && !definitions.has(field.references)) {
    checks.fail(`${key}.references`, `no family '${field.references}'${didYouMean(field.references, definitions.keys())}`);
  }
  const { join, sourceColumn } = field.from !== undefined
    ? joinedSource({ key, field, joins, checks })
    : ownColumn({ key, name, field, columns, checks });
  return Object.freeze({
    name,
    type: field.type,
    column: join ? null : sourceColumn,
    join,
    sourceColumn,
    nullable: name === 'id' ? false : (field.nullable ?? true),
    values,
    references: field.references ?? null,
    unique: field.unique ?? false,
    hidden: field.hidden ?? false,
    description: field.description ?? null,
  });
}

/** `from: '<join>.<column>'`: such a field has no column, references or uniqueness of its own. */
function joinedSource({ key, field, joins, checks: { fail } }: {
  key: string;
  field: FieldDefinition;
  joins: Readonly<Record<string, Join>>;
  checks: DefinitionChecks;
}): FieldSource {
  if (field.column !== undefined || field.references !== undefined || field.unique !== undefined) {
    fail(key, "a field read 'from' a join has no column, references or unique of its own");
  }
  const [join, column, ...rest] = field.from!.split('.');
  if (!join || !column || rest.length > 0) fail(`${key}.from`, "write '<join>.<column>'");
  if (!Object.hasOwn(joins, join!)) fail(`${key}.from`, `no join '${join}'${didYouMean(join!, Object.keys(joins))}`);
  if (!SQL_IDENTIFIER.test(column!)) fail(`${key}.from`, `'${column}' is not a column name`);
  return { join: join!, sourceColumn: column! };
}

/** A column of this table: the declared one or the name in snake case, never `brand_id`, never taken twice. */
function ownColumn({ key, name, field, columns, checks: { fail } }: {
  key: string;
  name: string;
  field: FieldDefinition;
  columns: Set<string>;
  checks: DefinitionChecks;
}): FieldSource {
  const sourceColumn = field.column ?? toSnakeCase(name);
  if (!SQL_IDENTIFIER.test(sourceColumn)) fail(`${key}.column`, `'${sourceColumn}' is not a column name`);
  if (sourceColumn === 'brand_id') fail(`${key}.column`, 'brand_id belongs to the engine and is never a field');
  if (columns.has(sourceColumn)) fail(`${key}.column`, `column '${sourceColumn}' is declared twice`);
  columns.add(sourceColumn);
  return { join: null, sourceColumn };
}
