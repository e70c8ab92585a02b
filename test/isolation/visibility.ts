import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Field, Filter, FilterTarget, Include, Join, Resource } from '../../src/engine/definition/resource.ts';
import { queryValue, renderedValue } from '../support/record-factory.ts';
import { familyOfTable, fieldByColumn } from '../support/registry-lookups.ts';
import type { PlantedRow, World } from './plant-world.ts';

/**
 * The oracle: what a brand may see of the planted world, worked out from the
 * registry and the planted values alone (CONTRACT.md §1), never from the
 * engine's SQL. A row is visible to a brand when it is the brand's own, or a
 * shared row of a shared family; a join, a joined-column filter or an include
 * only ever reaches rows visible to the brand of the path.
 */
export interface Oracle {
  readonly registry: Registry;
  readonly world: World;
}

export function canSee(resource: Resource, row: PlantedRow, brandId: string): boolean {
  switch (resource.scope) {
    case 'brand':
      return row.brandId === brandId;
    case 'shared':
      return row.brandId === brandId || row.brandId === null;
    case 'tenant':
      return row.record.id === brandId;
  }
}

export function visibleRows({ world }: Oracle, resource: Resource, brandId: string): PlantedRow[] {
  return world.rows(resource.path).filter((row) => canSee(resource, row, brandId));
}

const same = (x: unknown, y: unknown): boolean => x !== null && x !== undefined && String(x) === String(y);

/** The row a join reaches from a record, among the rows the brand may see (null: none). */
function joinedRow(oracle: Oracle, { resource, join, row, brandId }: { resource: Resource; join: Join; row: PlantedRow; brandId: string }): { holder: Resource; row: PlantedRow } | null {
  const holder = familyOfTable(oracle.registry, join.table);
  const local = row.record[fieldByColumn(resource, join.localColumn).name];
  const foreign = fieldByColumn(holder, join.foreignColumn).name;
  const found = visibleRows(oracle, holder, brandId).find((r) => same(r.record[foreign], local));
  return found ? { holder, row: found } : null;
}

/** A field of a record as the brand must read it: its column, or the joined row's column (null when the join reaches nothing the brand may see). */
export function fieldValue(oracle: Oracle, { resource, field, row, brandId }: { resource: Resource; field: Field; row: PlantedRow; brandId: string }): unknown {
  if (field.join === null) return row.record[field.name];
  const joined = joinedRow(oracle, { resource, join: resource.joins[field.join]!, row, brandId });
  return joined ? joined.row.record[fieldByColumn(joined.holder, field.sourceColumn).name] ?? null : null;
}

/** The fields of a family read through a join: where a join could leak another brand's values into a record. */
export const joinedFields = (resource: Resource): Field[] => resource.recordFields.filter((field) => field.join !== null);

/** The values a filter target compares for a record, as the brand must see them. */
function targetValues(oracle: Oracle, { resource, target, row, brandId }: { resource: Resource; target: FilterTarget; row: PlantedRow; brandId: string }): unknown[] {
  if (target.join === null) return [row.record[fieldByColumn(resource, target.column).name]];
  const joined = joinedRow(oracle, { resource, join: resource.joins[target.join]!, row, brandId });
  return joined ? [joined.row.record[fieldByColumn(joined.holder, target.column).name]] : [];
}

function matches(filter: Filter, target: FilterTarget, stored: unknown, value: string): boolean {
  if (stored === null || stored === undefined) return false;
  switch (filter.match) {
    case 'exact':
      return queryValue(renderedValue(target.type, stored)) === value;
    case 'contains-ci':
      return String(stored).toLowerCase().includes(value.toLowerCase());
    case 'since':
    case 'gte':
      return compared(target, stored, value) >= 0;
    case 'gt':
      return compared(target, stored, value) > 0;
    case 'lte':
      return compared(target, stored, value) <= 0;
    case 'lt':
      return compared(target, stored, value) < 0;
  }
}

/** The sign of a stored value against a bound: dates as their text, timestamps as instants, numbers as numbers (the planted ones are small). */
function compared(target: FilterTarget, stored: unknown, value: string): number {
  if (target.type === 'date') return String(stored) < value ? -1 : String(stored) > value ? 1 : 0;
  if (target.type === 'timestamp') return Date.parse(String(renderedValue(target.type, stored))) - Date.parse(value);
  return Number(stored) - Number(value);
}

/** Whether a list filtered by `filter=value` must return the row to this brand (given the brand may see the row). */
export function filterSelects(oracle: Oracle, { resource, filter, value, row, brandId }: { resource: Resource; filter: Filter; value: string; row: PlantedRow; brandId: string }): boolean {
  return filter.targets.some((target) =>
    targetValues(oracle, { resource, target, row, brandId }).some((stored) => matches(filter, target, stored, value)));
}

/** Ids of the records an include must embed in a record, for this brand: among the rows it may see, those whose remote field equals the local one. */
export function includedIds(oracle: Oracle, { resource, include, row, brandId }: { resource: Resource; include: Include; row: PlantedRow; brandId: string }): string[] {
  const localField = resource.fields.find((f) => f.name === include.localField)!;
  const local = fieldValue(oracle, { resource, field: localField, row, brandId });
  if (local === null || local === undefined) return [];
  const related = oracle.registry.get(include.resource);
  return visibleRows(oracle, related, brandId)
    .filter((r) => same(r.record[include.remoteField], local))
    .map((r) => String(r.record.id));
}

/**
 * Filter values worth trying: the value each target holds in the rows of the
 * given roles, read from the record itself or, for a joined target, from
 * every row of the joined family with those roles (any brand: B's joined row
 * is exactly what A must not reach).
 */
export function valuesHeld(oracle: Oracle, { resource, filter, roles }: { resource: Resource; filter: Filter; roles: readonly string[] }): { value: string; from: PlantedRow }[] {
  const found: { value: string; from: PlantedRow }[] = [];
  for (const target of filter.targets) {
    const holder = target.join === null ? resource : familyOfTable(oracle.registry, resource.joins[target.join]!.table);
    const field = fieldByColumn(holder, target.column);
    for (const row of oracle.world.rows(holder.path)) {
      if (!roles.includes(row.role)) continue;
      const stored = row.record[field.name];
      if (stored === null || stored === undefined) continue;
      found.push({ value: queryValue(renderedValue(target.type, stored)), from: row });
    }
  }
  const seen = new Set<string>();
  return found.filter(({ value }) => !seen.has(value) && seen.add(value));
}
