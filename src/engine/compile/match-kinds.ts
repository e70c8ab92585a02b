import { FIELD_TYPES, STRING_PARAMETER, type JsonSchema } from './field-types.ts';
import type { FilterTarget, Join } from '../definition/resource.ts';
import { quoteIdentifier } from '../definition/naming.ts';
import { column, joinFragments, scopeCondition, type SqlFragment } from './sql-fragment.ts';
import type { MatchKind } from '../definition/resource-definition.ts';

/** Everything one match kind means: the check of its declaration, its parameter, its SQL, its index and its docs. */
export interface MatchImpl {
  /** A problem with the targets, or null when the kind can serve them. */
  check(targets: readonly FilterTarget[]): string | null;
  /** JSON Schema of the query parameter (AJV and OpenAPI both use it). */
  parameterSchema(targets: readonly FilterTarget[]): JsonSchema;
  /** The predicate on the list's table (aliased `t`) for one validated value. */
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

/** `%` and `_` (and the escape itself) taken literally inside LIKE. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The predicate `<column> <operator> ?` for one target. A column of a join is
 * matched with a semi-join on the joined table, limited to the same brand, so
 * the list keeps its own index order and never gains duplicate rows.
 */
function targetPredicate({ target, joins, operator, value, brandId }: {
  target: FilterTarget;
  joins: Readonly<Record<string, Join>>;
  operator: string;
  value: unknown;
  brandId: string;
}): SqlFragment {
  if (target.join === null) return { sql: `${column('t', target.column)} ${operator} ?`, bindings: [value] };
  const join = joins[target.join]!;
  const scope = scopeCondition({ alias: 'f', scope: join.scope, brandId });
  return {
    sql:
      `${column('t', join.localColumn)} in (select ${column('f', join.foreignColumn)} from ${quoteIdentifier(join.table)} f` +
      ` where ${column('f', target.column)} ${operator} ? and ${scope.sql})`,
    bindings: [value, ...scope.bindings],
  };
}

const names = (targets: readonly FilterTarget[]): string => targets.map((t) => `\`${t.label}\``).join(' or ');

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
    where: ({ targets, joins, value, brandId }) =>
      targetPredicate({ target: targets[0]!, joins, operator: '=', value, brandId }),
    index: 'btree',
    // Each exact filter has its own index in list order (brand, column, created_at, id): one plan fits every value.
    planPerValue: false,
    describe: ([target]) =>
      target!.type === 'enum'
        ? `Exact match on ${names([target!])}: one of the listed values.`
        : target!.type === 'string'
          ? `Exact, case-sensitive match on ${names([target!])}.`
          : `Exact match on ${names([target!])}.`,
  },
  'contains-ci': {
    check: (targets) =>
      targets.every((t) => t.type === 'string' || t.type === 'enum')
        ? null
        : "a 'contains-ci' filter searches string fields only",
    parameterSchema: () => STRING_PARAMETER,
    where: ({ targets, joins, value, brandId }) => {
      const pattern = `%${escapeLike(value as string)}%`;
      const each = targets.map((target) => targetPredicate({ target, joins, operator: 'ilike', value: pattern, brandId }));
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
    where: ({ targets, joins, value, brandId }) =>
      targetPredicate({ target: targets[0]!, joins, operator: '>=', value, brandId }),
    index: 'btree',
    planPerValue: true,
    describe: ([target]) =>
      target!.type === 'date'
        ? `Records whose ${names([target!])} is on or after this date (\`YYYY-MM-DD\`).`
        : `Records whose ${names([target!])} is at or after this instant: ISO 8601 with a time zone, such as \`2026-03-01T00:00:00Z\`.`,
  },
});
