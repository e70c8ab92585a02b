import type { SchemaPlan } from '../../engine/compile/plan-schema.ts';
import type { Scope } from '../../engine/definition/resource-definition.ts';
import { SERVICE_TABLES } from './service-tables.ts';

export type DistributionRole = 'distributed' | 'reference';

/** What each scope becomes (see `Scope` in `src/engine/definition/resource-definition.ts`). */
export const ROLE_OF_SCOPE: Readonly<Record<Scope, DistributionRole>> = Object.freeze({
  // Every row belongs to one brand, never null: the natural shard key.
  brand: 'distributed',
  // Rows with a null brand are seen by every brand, and Citus cannot place a
  // row whose distribution column is null: the whole table is copied instead.
  shared: 'reference',
  // The brands themselves: small, and joined by every key check.
  tenant: 'reference',
});

/** The distribution column of every distributed table. */
export const DISTRIBUTION_COLUMN = 'brand_id';

/** The role of every table of the schema (by its scope) and of `SERVICE_TABLES` (reference tables), by table name. */
export function distributionRoles(schema: SchemaPlan): ReadonlyMap<string, DistributionRole> {
  const roles = new Map<string, DistributionRole>();
  for (const table of schema.tables) roles.set(table.name, ROLE_OF_SCOPE[table.scope]);
  for (const table of SERVICE_TABLES) roles.set(table.name, 'reference');
  return roles;
}
