import type { DefinitionChecks } from './definition-checks.ts';
import { didYouMean } from './did-you-mean.ts';
import { FIELD_TYPES } from '../compile/field-types.ts';
import { SQL_IDENTIFIER } from './naming.ts';
import { normalizeValues } from './normalize-values.ts';
import type { Field, FilterTarget, Join } from './resource.ts';
import type { FilterDefinition } from './resource-definition.ts';

interface TargetsArgs {
  /** Key of the filter, `filters.<name>`. */
  readonly key: string;
  readonly filter: FilterDefinition;
  /** The family's fields, hidden ones included. */
  readonly fields: readonly Field[];
  readonly joins: Readonly<Record<string, Join>>;
  readonly checks: DefinitionChecks;
}

/**
 * The columns a filter compares: its `field`, each of its `fields` (their type
 * and values come from the field), or one `column` of a join with the type
 * it declares.
 */
export function filterTargets(args: TargetsArgs): readonly FilterTarget[] {
  const { key, filter, fields, checks: { fail } } = args;
  if (filter.column !== undefined) return Object.freeze([joinedColumnTarget(args)]);
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

/** `column: '<join>.<column>'` with its `type` (and `values` for an enum). */
function joinedColumnTarget({ key, filter, joins, checks }: TargetsArgs): FilterTarget {
  const { fail, oneOf } = checks;
  const [join, column, ...rest] = filter.column!.split('.');
  if (!join || !column || rest.length > 0 || !Object.hasOwn(joins, join)) {
    fail(`${key}.column`, `write '<join>.<column>' with a declared join${didYouMean(join ?? '', Object.keys(joins))}`);
  }
  if (!SQL_IDENTIFIER.test(column!)) fail(`${key}.column`, `'${column}' is not a column name`);
  if (!filter.type) fail(`${key}.type`, 'a filter on a joined column names its type');
  oneOf({ key: `${key}.type`, value: filter.type!, allowed: Object.keys(FIELD_TYPES), what: 'type' });
  const values = normalizeValues({ key, type: filter.type!, values: filter.values, checks });
  return Object.freeze({ label: filter.column!, join: join!, column: column!, type: filter.type!, values });
}
