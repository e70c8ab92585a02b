import type { SchemaPlan, TablePlan } from '../../engine/compile/plan-schema.ts';
import type { ForeignKeyPlan } from './distribution-foreign-keys.ts';
import { DISTRIBUTION_COLUMN, type DistributionRole } from './distribution-roles.ts';

/**
 * What stops the schema from being distributed as planned, in this order:
 * no tenant table, brand-scoped tables without a usable brand_id, unique
 * indexes without it, and foreign keys that cannot come back. Empty when
 * nothing does.
 */
export function distributionProblems({ schema, roles, foreignKeys }: {
  schema: SchemaPlan;
  roles: ReadonlyMap<string, DistributionRole>;
  foreignKeys: readonly ForeignKeyPlan[];
}): string[] {
  const problems: string[] = [];
  const tenant = schema.tables.find((table) => table.scope === 'tenant') ?? null;
  if (!tenant) problems.push("no tenant table (scope 'tenant'): the brands must be a reference table");
  const tenantIdType = tenant?.columns.find((column) => column.name === 'id')?.type ?? null;
  for (const table of schema.tables) if (roles.get(table.name) === 'distributed') problems.push(...tableProblems(table, tenantIdType));
  for (const index of schema.indexes) {
    if (roles.get(index.table) === 'distributed' && index.unique && !index.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push(`${index.name}: a unique index on a distributed table must include ${DISTRIBUTION_COLUMN}`);
    }
  }
  problems.push(...foreignKeyProblems({ schema, roles, foreignKeys }));
  return problems;
}

/** What a brand-scoped table lacks to be distributed by brand_id. */
function tableProblems(table: TablePlan, tenantIdType: string | null): string[] {
  const brandId = table.columns.find((column) => column.name === DISTRIBUTION_COLUMN);
  const problems: string[] = [];
  if (!table.columns.some((column) => column.name === 'id')) problems.push(`${table.name}: no id column for the primary key (brand_id, id)`);
  if (!brandId) return [...problems, `${table.name}: brand-scoped but has no ${DISTRIBUTION_COLUMN} column to be distributed by`];
  if (brandId.nullable) problems.push(`${table.name}.${DISTRIBUTION_COLUMN} is nullable: Citus cannot place a row whose distribution column is null`);
  if (tenantIdType !== null && brandId.type !== tenantIdType) {
    problems.push(`${table.name}.${DISTRIBUTION_COLUMN} is ${brandId.type}, the brands' id is ${tenantIdType}: colocated tables need one type`);
  }
  return problems;
}

/** Foreign keys to nowhere, from a reference table to a distributed one, or composite between tables without a not-null brand_id. */
function foreignKeyProblems({ schema, roles, foreignKeys }: {
  schema: SchemaPlan;
  roles: ReadonlyMap<string, DistributionRole>;
  foreignKeys: readonly ForeignKeyPlan[];
}): string[] {
  const hasNotNullBrandId = (name: string): boolean =>
    schema.tables.find((t) => t.name === name)?.columns.some((c) => c.name === DISTRIBUTION_COLUMN && !c.nullable) ?? false;
  const problems: string[] = [];
  for (const key of foreignKeys) {
    const target = roles.get(key.references);
    if (target === undefined) problems.push(`${key.table}.${key.column} references ${key.references}, which is not in the schema`);
    else if (roles.get(key.table) === 'reference' && target === 'distributed') {
      problems.push(`${key.table}.${key.column} -> ${key.references}: a reference table cannot point at a distributed table`);
    } else if (key.composite && !(hasNotNullBrandId(key.table) && hasNotNullBrandId(key.references))) {
      problems.push(`${key.table}.${key.column} -> ${key.references}: cannot be made composite on ${DISTRIBUTION_COLUMN}`);
    }
  }
  return problems;
}
