import type { Field, Filter } from './resource.ts';
import type { Scope } from './resource-definition.ts';

/**
 * Filters the engine gives every list whose records carry the field, so a
 * sync can read only what was created or changed since its last run.
 */
export const SYNC_FILTERS: readonly { readonly name: string; readonly field: string; readonly description: string | null }[] = Object.freeze([
  { name: 'createdSince', field: 'createdAt', description: null },
  {
    name: 'updatedSince',
    field: 'updatedAt',
    // What it cannot do, said where integrators look first (CONTRACT.md §6).
    description: 'Records whose `updatedAt` is at or after this instant: ISO 8601 with a time zone, such as `2026-03-01T00:00:00Z`. '
      + 'It cannot keep a copy in sync: `updatedAt` is set when the writing transaction begins, so a change committed after your call '
      + 'can carry an older time and never match, and a deleted record is simply no longer listed. To keep a copy, follow the '
      + 'family\'s changes feed (`GET /brands/{brand}/<family>/changes` with the last `syncToken`), which misses neither.',
  },
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
    out.push(Object.freeze({ name: sync.name, match: 'since', targets: Object.freeze([target]), description: sync.description }));
  }
  return out;
}
