import { FIELD_TYPES, STRING_PARAMETER, type JsonSchema } from './field-types.ts';
import { RANGE_TIMESTAMP_PARAMETER } from './date-time-parameters.ts';
import type { FilterTarget, Join } from '../definition/resource.ts';
import { quoteIdentifier } from '../definition/naming.ts';
import { column, joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import type { FieldType, MatchKind } from '../definition/resource-definition.ts';

/** Everything one match kind means: the check of its declaration, its parameter, its SQL, its index and its docs. */
export interface MatchImpl {
  /** A problem with the targets, or null when the kind can serve them. */
  check(targets: readonly FilterTarget[]): string | null;
  /** JSON Schema of one value of the query parameter (AJV and OpenAPI both use it). */
  parameterSchema(targets: readonly FilterTarget[]): JsonSchema;
  /**
   * Whether the parameter may be given several times, matching any of its
   * values (CONTRACT.md §8): the request parser then gives `where` an array
   * of two or more values, and one value as it is.
   */
  readonly anyOf: boolean;
  /** The predicate on the list's table (aliased `t`) for one validated value (or, with `anyOf`, an array of them). */
  where(args: { targets: readonly FilterTarget[]; joins: Readonly<Record<string, Join>>; value: unknown; brandId: string }): SqlFragment;
  /** The index each target needs: a btree that leads with the brand, or a trigram GIN. */
  readonly index: 'btree' | 'trigram';
  /**
   * Whether the best plan depends on the value: how many rows a pattern or a
   * range keeps decides between walking the list order and reading the
   * matches first. Queries with such a filter are planned for their values
   * on every request, never prepared (a generic plan for `search=parka` read
   * and sorted the big brand's 6,787 matches: 15 ms instead of 1).
   */
  readonly planPerValue: boolean;
  /** One sentence for the docs. */
  describe(targets: readonly FilterTarget[]): string;
}

/** The most values one parameter of an `anyOf` kind takes (CONTRACT.md §8). */
export const MAX_ANY_OF_VALUES = 100;

/** `%` and `_` (and the escape itself) taken literally inside LIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The predicate `<column> <test>` for one target, the test holding one `?`
 * (`= ?`, `= any(?)`, `ilike ?`). A column of a join is matched with a
 * semi-join on the joined table, limited to the same brand, so the list
 * keeps its own index order and never gains duplicate rows.
 */
function targetPredicate({ target, joins, test, value, brandId }: {
  target: FilterTarget;
  joins: Readonly<Record<string, Join>>;
  test: string;
  value: unknown;
  brandId: string;
}): SqlFragment {
  if (target.join === null) return { sql: `${column('t', target.column)} ${test}`, bindings: [value] };
  const join = joins[target.join]!;
  const scope = scopeCondition({ alias: 'f', scope: join.scope, brandId });
  return {
    sql:
      `${column('t', join.localColumn)} in (select ${column('f', join.foreignColumn)} from ${quoteIdentifier(join.table)} f` +
      ` where ${column('f', target.column)} ${test} and ${scope.sql})`,
    bindings: [value, ...scope.bindings],
  };
}

const names = (targets: readonly FilterTarget[]): string => targets.map((t) => `\`${t.label}\``).join(' or ');

/** The types a bound of a range compares: those whose order means something and whose parameter is exact. */
const RANGE_TYPES: readonly FieldType[] = ['date', 'timestamp', 'integer', 'decimal'];

/** What a value of each range type is called in the docs, with an example of one. */
const BOUND_VALUES: Readonly<Partial<Record<FieldType, string>>> = {
  date: 'this date (`YYYY-MM-DD`)',
  timestamp: 'this instant (ISO 8601 with a time zone, such as `2026-03-01T00:00:00Z`; compared at microsecond precision)',
  integer: 'this integer',
  decimal: 'this decimal (such as `-12.50`, compared exactly)',
};

/** How a bound reads in the docs, for times and for numbers. */
interface BoundWords {
  readonly time: string;
  readonly number: string;
}

/**
 * One bound of a range: `<column> <operator> ?`, the value compared as the
 * column's own type (a decimal as `numeric`, never a float). A null value is
 * in no range. The plan depends on the bound (how many rows it keeps).
 */
function boundKind(operator: '>=' | '>' | '<=' | '<', words: BoundWords): MatchImpl {
  return {
    check: (targets) =>
      targets.length === 1 && RANGE_TYPES.includes(targets[0]!.type) ? null : `a range bound compares one ${RANGE_TYPES.join(', ')} field`,
    // A timestamp bound at most to the microsecond: compared as given, never rounded.
    parameterSchema: ([target]) => (target!.type === 'timestamp' ? RANGE_TIMESTAMP_PARAMETER : FIELD_TYPES[target!.type].parameterSchema!),
    anyOf: false,
    where: ({ targets, joins, value, brandId }) =>
      targetPredicate({ target: targets[0]!, joins, test: `${operator} ?`, value, brandId }),
    index: 'btree',
    planPerValue: true,
    describe: ([target]) => {
      const word = target!.type === 'date' || target!.type === 'timestamp' ? words.time : words.number;
      return `Records whose ${names([target!])} is ${word} ${BOUND_VALUES[target!.type]}; a null value is in no range.`;
    },
  };
}

export const MATCH_KINDS: Readonly<Record<MatchKind, MatchImpl>> = Object.freeze({
  exact: {
    check: (targets) =>
      targets.length !== 1
        ? "an 'exact' filter matches one field"
        : FIELD_TYPES[targets[0]!.type].parameterSchema === null
          ? `a ${targets[0]!.type} field cannot be matched exactly`
          : null,
    parameterSchema: ([target]) =>
      target!.type === 'enum' ? { type: 'string', enum: [...target!.values!] } : FIELD_TYPES[target!.type].parameterSchema!,
    anyOf: true,
    // One value keeps the statement it always had; several are one array, so any number of them is one statement shape.
    where: ({ targets, joins, value, brandId }) =>
      targetPredicate({ target: targets[0]!, joins, test: Array.isArray(value) ? '= any(?)' : '= ?', value, brandId }),
    index: 'btree',
    // Each exact filter has its own index in list order (brand, column, created_at, id): one plan fits every value.
    planPerValue: false,
    describe: ([target]) =>
      (target!.type === 'enum'
        ? `Exact match on ${names([target!])}: one of the listed values.`
        : target!.type === 'string'
          ? `Exact, case-sensitive match on ${names([target!])}.`
          : `Exact match on ${names([target!])}.`)
      + ` Give it several times (up to ${MAX_ANY_OF_VALUES}) to match any of the values.`,
  },
  'contains-ci': {
    check: (targets) =>
      targets.every((t) => t.type === 'string' || t.type === 'enum')
        ? null
        : "a 'contains-ci' filter searches string fields only",
    parameterSchema: () => STRING_PARAMETER,
    anyOf: false,
    where: ({ targets, joins, value, brandId }) => {
      const pattern = `%${escapeLike(value as string)}%`;
      const each = targets.map((target) => targetPredicate({ target, joins, test: 'ilike ?', value: pattern, brandId }));
      const any = joinFragments(each, ' or ');
      return each.length > 1 ? { sql: `(${any.sql})`, bindings: any.bindings } : any;
    },
    index: 'trigram',
    planPerValue: true,
    describe: (targets) =>
      `Case-insensitive substring of ${names(targets)}; \`%\` and \`_\` are ordinary characters.`,
  },
  since: {
    check: (targets) =>
      targets.length === 1 && (targets[0]!.type === 'timestamp' || targets[0]!.type === 'date')
        ? null
        : "a 'since' filter compares one timestamp or date field",
    parameterSchema: ([target]) => FIELD_TYPES[target!.type].parameterSchema!,
    anyOf: false,
    where: ({ targets, joins, value, brandId }) =>
      targetPredicate({ target: targets[0]!, joins, test: '>= ?', value, brandId }),
    index: 'btree',
    planPerValue: true,
    describe: ([target]) =>
      target!.type === 'date'
        ? `Records whose ${names([target!])} is on or after this date (\`YYYY-MM-DD\`).`
        : `Records whose ${names([target!])} is at or after this instant: ISO 8601 with a time zone, such as \`2026-03-01T00:00:00Z\`.`,
  },
  gte: boundKind('>=', { time: 'at or after', number: 'at least' }),
  gt: boundKind('>', { time: 'after', number: 'greater than' }),
  lte: boundKind('<=', { time: 'at or before', number: 'at most' }),
  lt: boundKind('<', { time: 'before', number: 'less than' }),
});
