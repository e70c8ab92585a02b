import type { Field, Filter } from './resource.ts';
import type { Scope } from './resource-definition.ts';

/**
 * Filters the engine gives every list whose records carry the field, so a
 * sync can read only what was created or changed since its last run.
 */
export const SYNC_FILTERS: readonly { readonly name: string; readonly field: string }[] = Object.freeze([
  { name: 'createdSince', field: 'createdAt' },
  { name: 'updatedSince', field: 'updatedAt' },
]);

/** The sync filters of a family: one `since` filter per timestamp column field it has, none for the tenant family. */
export function syncFilters({ scope, fields }: { scope: Scope; fields: readonly Field[] }): Filter[] {
  // The tenant family has no list to filter.
  if (scope === 'tenant') return [];
  const out: Filter[] = [];
  for (const sync of SYNC_FILTERS) {
    const field = fields.find((f) => f.name === sync.field && f.type === 'timestamp' && f.join === null);
    if (!field) continue;
    const target = Object.freeze({ label: field.name, join: null, column: field.sourceColumn, type: field.type, values: null });
    out.push(Object.freeze({ name: sync.name, match: 'since', targets: Object.freeze([target]), description: null }));
  }
  return out;
}
