import { FIELD_TYPES } from './field-types.ts';
import { LIST_ORDER, quoteAlias, type QueryParts } from './query-parts.ts';
import { scopeCondition, type SqlFragment } from './sql-fragment.ts';
import { batchByRow, COUNT_COLUMN, PLACE_COLUMN, UUID_COLUMN, withBatch, type BatchPlan } from './batch-by-row.ts';
import { planLabel } from './plan-label.ts';

/** Records whose field equals one of the values, in list order, at most `limit` (for includes). */
export type MatchingQuery = (args: { brandId: string; field: string; values: readonly unknown[]; limit: number }) => SqlFragment;

/**
 * An include's records. The values go as one array (`= any(?)`), so a page's
 * include is one statement whatever its number of keys; and the includes of
 * requests arriving together (of one family, on one field) may share one
 * statement (batch-by-row.ts): each request's keys travel as one array
 * literal cast to the field's type, its brand and its limit with them, and
 * each row carries its place in its request's list order, so a request gets
 * the rows, the order and the limit it would get alone.
 */
export function matchingQuery(parts: QueryParts): MatchingQuery {
  const { resource, selectList, from, fieldColumn } = parts;
  const label = planLabel(resource, 'include');
  // One plan per field asked for, built on first use: a family has few fields, and each plan's text never changes.
  const batches = new Map<string, BatchPlan | null>();
  const batchOf = (field: string): BatchPlan | null => {
    let plan = batches.get(field);
    if (plan === undefined) {
      plan = matchingBatch(parts, field);
      batches.set(field, plan);
    }
    return plan;
  };
  return ({ brandId, field, values, limit }) => {
    const target = fieldColumn(field);
    const source = from(brandId);
    const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId });
    const query: SqlFragment = {
      sql: `select ${selectList} ${source.sql} where ${scope.sql} and ${target} = any(?)${LIST_ORDER} limit ?`,
      bindings: [...source.bindings, ...scope.bindings, [...values], limit],
      label,
    };
    const batch = batchOf(field);
    return batch ? withBatch(query, batch) : query;
  };
}

/** The batched form of one field's include query, or null when the field's type cannot travel in a batch (`FieldTypeImpl.castable`). */
function matchingBatch({ resource, selectList, from, fieldColumn }: QueryParts, field: string): BatchPlan | null {
  const type = resource.recordFields.find((f) => f.name === field)?.type;
  const castable = type === undefined ? undefined : FIELD_TYPES[type].castable;
  if (type === undefined || castable === undefined) return null;
  const source = from('');
  const scope = scopeCondition({ alias: 't', scope: resource.scope, brandId: '' });
  const place = `row_number() over (${LIST_ORDER.trim()}) as ${quoteAlias(PLACE_COLUMN)}`;
  return batchByRow({
    sql: `select ${selectList}, ${place} ${source.sql} where ${scope.sql} and ${fieldColumn(field)} = any(?)${LIST_ORDER} limit ?`,
    columns: [
      ...Array<typeof UUID_COLUMN>(source.bindings.length + scope.bindings.length).fill(UUID_COLUMN),
      { type: FIELD_TYPES[type].columnType, array: true, accepts: castable },
      COUNT_COLUMN,
    ],
    ordered: true,
  });
}
