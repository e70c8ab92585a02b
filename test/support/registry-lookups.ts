import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';

/** The registry's families that have list and get routes (all but the tenant family). */
export const listedFamilies = (registry: Registry): Resource[] => registry.resources.filter((resource) => resource.scope !== 'tenant');

/** The family whose table this is (a join names a table, not a family). */
export function familyOfTable(registry: Registry, table: string): Resource {
  const found = registry.resources.find((resource) => resource.table === table);
  if (!found) throw new Error(`no family reads table '${table}'`);
  return found;
}

/** The field of a family stored in this column; `what` says who asked, when it is not there. */
export function fieldByColumn(resource: Resource, column: string, what: string = resource.path): Field {
  const field = resource.fields.find((f) => f.column === column);
  if (!field) throw new Error(`${what}: no column field of ${resource.path} is '${column}'`);
  return field;
}
