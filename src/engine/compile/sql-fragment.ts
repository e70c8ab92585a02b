import { quoteIdentifier } from '../definition/naming.ts';
import type { Scope } from '../definition/resource-definition.ts';
import type { PlanLabel } from './plan-label.ts';

/** SQL text with `?` placeholders and the values bound to them, in order. */
export interface SqlFragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
  /**
   * Whether a whole query may run as a prepared statement, whose plan
   * Postgres may make once for any values (prepared-statements.ts). False
   * when the best plan depends on the values (a pattern's or a range's
   * selectivity: `MatchImpl.planPerValue`). Unset: it may.
   */
  readonly prepare?: boolean;
  /**
   * How this query may run together with the same query of other requests
   * arriving at the same moment (batch-by-row.ts): the batch's text, and how
   * a request's bindings travel in it (unset: as they are); unset: alone.
   */
  readonly batch?: { readonly sql: string; travel?(bindings: readonly unknown[]): readonly unknown[] };
  /** Which family's statement this is and what it does, for traces (plan-label.ts); never a value. Unset on fragments and ad hoc SQL. */
  readonly label?: PlanLabel;
}

/** `alias."column"` from checked identifiers. */
export function column(alias: string, name: string): string {
  return `${alias}.${quoteIdentifier(name)}`;
}

/**
 * The condition that limits a table's rows to what one brand may see
 * (CONTRACT.md §1): its own rows, plus shared rows where the family has them.
 * `opaque` reads the brand through a scalar subquery, which the planner does
 * not look into: a custom plan then estimates the brand's rows as a generic
 * plan does (a prepared page keeps its generic plan, compile-queries.ts).
 */
export function scopeCondition({ alias, scope, brandId, opaque = false }: { alias: string; scope: Scope; brandId: string; opaque?: boolean }): SqlFragment {
  const brand = opaque ? '(select ?::uuid)' : '?';
  switch (scope) {
    case 'brand':
      return { sql: `${column(alias, 'brand_id')} = ${brand}`, bindings: [brandId] };
    case 'shared':
      return { sql: `(${column(alias, 'brand_id')} = ${brand} or ${column(alias, 'brand_id')} is null)`, bindings: [brandId] };
    case 'tenant':
      return { sql: `${column(alias, 'id')} = ${brand}`, bindings: [brandId] };
  }
}

/** Joins fragments with a separator, keeping the bindings in order. */
export function joinFragments(fragments: readonly SqlFragment[], separator: string): SqlFragment {
  return {
    sql: fragments.map((f) => f.sql).join(separator),
    bindings: fragments.flatMap((f) => f.bindings),
  };
}
