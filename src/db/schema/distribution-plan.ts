import type { SchemaPlan } from '../../engine/compile/plan-schema.ts';
import type { Scope } from '../../engine/definition/resource-definition.ts';
import { planForeignKeys, type ForeignKeyPlan } from './distribution-foreign-keys.ts';
import { distributionProblems } from './distribution-problems.ts';
import { distributionRoles, type DistributionRole } from './distribution-roles.ts';
import { distributionSteps, type DistributionStep } from './distribution-steps.ts';
import { SERVICE_TABLES } from './service-tables.ts';

/**
 * How the schema would be spread over a Citus cluster by brand, and the DDL
 * that converts a migrated database to it. The service never runs it: it is
 * the plan `docs/CAPACITY.md` describes, generated from the registry so that
 * a test can hold the schema to it as families are added (and run it on the
 * test database, rolled back: `test/db/schema/distribution-plan.test.ts`), printed
 * by `tools/distribution-plan.ts` (as `distributionSql` writes it).
 *
 * - Brand-scoped tables are distributed by `brand_id`, all in one colocation
 *   group, so every query of one brand (they all filter by it) runs on one node.
 * - The brands table, the shared families (rows of every brand, or of one)
 *   and the API key tables become reference tables: a copy on every node.
 *
 * The conversion drops every foreign key among these tables first and adds
 * them back last, so no step relies on Citus converting plain tables that
 * point at a new Citus table on the fly; between distributed tables they come
 * back composite, `(brand_id, x_id) -> (brand_id, id)`.
 */

export interface TableDistribution {
  readonly table: string;
  /** The family's scope; null for a table of the service itself (`SERVICE_TABLES`). */
  readonly scope: Scope | null;
  readonly role: DistributionRole;
  /** This table's statements, in the order the plan runs them. */
  readonly statements: readonly string[];
}

export interface DistributionPlan {
  /** Every table of the schema and of `SERVICE_TABLES`, once each. */
  readonly tables: readonly TableDistribution[];
  /** The distributed table the others are colocated with (the most referenced one); null with none. */
  readonly colocateWith: string | null;
  readonly foreignKeys: readonly ForeignKeyPlan[];
  /** Every statement, in an order that runs. */
  readonly steps: readonly DistributionStep[];
  /** What stops the schema from being distributed as planned; empty when nothing does. */
  readonly problems: readonly string[];
}

/** The plan for a schema: each table's role, the DDL in order, and what stands in the way. */
export function planDistribution(schema: SchemaPlan): DistributionPlan {
  const roles = distributionRoles(schema);
  const foreignKeys = planForeignKeys({ schema, roles });
  const problems = distributionProblems({ schema, roles, foreignKeys });
  const colocateWith = colocationGroup({ schema, roles, foreignKeys });
  const steps = distributionSteps({ schema, roles, foreignKeys, colocateWith });
  const tables: TableDistribution[] = [
    ...schema.tables.map((table) => ({ table: table.name, scope: table.scope })),
    ...SERVICE_TABLES.map((table) => ({ table: table.name, scope: null })),
  ].map(({ table, scope }) => ({
    table,
    scope,
    role: roles.get(table)!,
    statements: steps.filter((step) => step.table === table).map((step) => step.sql),
  }));
  return { tables, colocateWith, foreignKeys, steps, problems };
}

/** The most referenced distributed table (a name for the colocation group; any member would do), then by name; null with none. */
function colocationGroup({ schema, roles, foreignKeys }: {
  schema: SchemaPlan;
  roles: ReadonlyMap<string, DistributionRole>;
  foreignKeys: readonly ForeignKeyPlan[];
}): string | null {
  const distributed = schema.tables.filter((table) => roles.get(table.name) === 'distributed');
  const incoming = (name: string): number => foreignKeys.filter((key) => key.composite && key.references === name).length;
  return [...distributed].sort((a, b) => incoming(b.name) - incoming(a.name) || a.name.localeCompare(b.name))[0]?.name ?? null;
}
