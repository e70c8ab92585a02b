import { FIELD_TYPES } from './field-types.ts';
import type { Field } from '../definition/resource.ts';
import { quoteAlias, type QueryParts } from './query-parts.ts';
import { column, type SqlFragment } from './sql-fragment.ts';
import { compileChangedSince } from './changed-since.ts';
import { planLabel } from './plan-label.ts';
import { CURRENT_SNAPSHOT_SQL } from './snapshot-text.ts';
import { MAX_COUNTED_VALUES } from './counts-schemas.ts';

/** Counts by value and how to tell later whether they still hold (as a list's count: `CountPlan`). */
export interface CountsPlan {
  /**
   * Answers at least one row: `snapshot` (the snapshot it ran in, as text)
   * on every row, and for each of the largest counts its `value` (as the
   * record reads it) and `count`, with `total` (every matching record) on
   * each; a row with a null `count` when no record matches.
   */
  readonly counts: SqlFragment;
  /** Answers `changed`: whether any row the counts may read was written by a transaction `snapshot` did not see; and `snapshot`, its own. */
  changedSince(snapshot: string): SqlFragment;
}

export type CountsQuery = (args: { brandId: string; filters: Readonly<Record<string, unknown>>; by: Field }) => CountsPlan;

/** The hidden columns of a counts row. */
export const COUNTS_COLUMNS = Object.freeze({ value: 'value', count: 'count', total: 'total', snapshot: 'snapshot' });

/**
 * `GET .../<path>/counts?by=<field>` (CONTRACT.md §8) in one statement: the
 * matching rows grouped by the field (read from the index that leads with
 * the brand and the field, as a filter on it is: every countable field has
 * one), the groups' sum over all of them (`totalItems`, exact), then the
 * largest `MAX_COUNTED_VALUES`, equal counts by value ascending, null last.
 * What is sorted is the groups, never the table's rows. The statement's
 * snapshot rides on every row, and on the one row a brand without matches
 * gives, so the counts can be remembered as a list's count is
 * (`ExactCounts`, changed-since.ts).
 */
export function countsQuery({ resource, table, where, preparable }: QueryParts): CountsQuery {
  const changedSince = compileChangedSince(resource);
  const label = planLabel(resource, 'counts');
  const { value, count, total, snapshot } = COUNTS_COLUMNS;
  return ({ brandId, filters, by }) => {
    if (!resource.countable.includes(by)) throw new Error(`${resource.path}: '${by.name}' is not countable`);
    const conditions = where(brandId, filters);
    const groups = `select ${column('t', by.sourceColumn)} as "v", count(*) as "n" from ${table} t where ${conditions.sql} group by ${column('t', by.sourceColumn)}`;
    const largest = `select ${FIELD_TYPES[by.type].read('g."v"')} as ${quoteAlias(value)}, g."n"::int as ${quoteAlias(count)}, (sum(g."n") over ())::int as ${quoteAlias(total)}`
      + ` from (${groups}) g order by g."n" desc, g."v" asc nulls last limit ${MAX_COUNTED_VALUES}`;
    return {
      counts: {
        sql: `select s.${quoteAlias(snapshot)}, x.* from (select ${CURRENT_SNAPSHOT_SQL} as ${quoteAlias(snapshot)}) s left join lateral (${largest}) x on true`,
        bindings: conditions.bindings,
        prepare: preparable(filters),
        label,
      },
      changedSince: (seen) => changedSince({ brandId, snapshot: seen }),
    };
  };
}
