import { quoteIdentifier } from '../../engine/definition/naming.ts';
import { indexName, type SchemaPlan, type TablePlan } from '../../engine/compile/plan-schema.ts';
import type { Scope } from '../../engine/definition/resource-definition.ts';

/**
 * How the schema would be spread over a Citus cluster by brand, and the DDL
 * that converts a migrated database to it. The service never runs it: it is
 * the plan `docs/CAPACITY.md` describes, generated from the registry so that
 * a test can hold the schema to it as families are added (and run it on the
 * test database, rolled back: `test/db/schema/distribution-plan.test.ts`), printed
 * by `tools/distribution-plan.ts`.
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

/** Stages of the conversion. Statements run stage by stage, in this order. */
export type DistributionPhase = 'drop-foreign-keys' | 'primary-keys' | 'reference-tables' | 'distributed-tables' | 'foreign-keys';

export const DISTRIBUTION_PHASES: Readonly<Record<DistributionPhase, { readonly order: number; readonly title: string }>> = Object.freeze({
  'drop-foreign-keys': { order: 1, title: 'Drop every foreign key among these tables (added back at the end)' },
  'primary-keys': { order: 2, title: 'Brand-scoped tables: primary key (brand_id, id) instead of (id)' },
  'reference-tables': { order: 3, title: 'Reference tables: a copy on every node' },
  'distributed-tables': { order: 4, title: 'Distributed tables: sharded by brand_id, colocated' },
  'foreign-keys': { order: 5, title: 'Foreign keys back: composite between distributed tables, as before otherwise' },
});

/** A foreign key of a table outside the registry. */
export interface ServiceForeignKey {
  readonly column: string;
  readonly references: string;
  /** The constraint's name in the migration (Postgres's default for an inline `references`). */
  readonly name: string;
  readonly onDelete: 'cascade' | null;
}

/** A table of the service itself, not generated from the registry. */
export interface ServiceTable {
  readonly name: string;
  readonly foreignKeys: readonly ServiceForeignKey[];
}

/**
 * The API key tables (`migrations/20261121000002_api_keys.ts`). They stay
 * with the primary's writes and NOTIFY on the coordinator; as reference
 * tables, the key check joins them with `brands` on any node.
 */
export const SERVICE_TABLES: readonly ServiceTable[] = Object.freeze([
  { name: 'api_keys', foreignKeys: [] },
  {
    name: 'api_key_brands',
    foreignKeys: [
      { column: 'key_id', references: 'api_keys', name: 'api_key_brands_key_id_fkey', onDelete: 'cascade' },
      { column: 'brand_id', references: 'brands', name: 'api_key_brands_brand_id_fkey', onDelete: 'cascade' },
    ],
  },
]);

/** One foreign key among the plan's tables, and how it comes back. */
export interface ForeignKeyPlan {
  readonly table: string;
  readonly column: string;
  readonly references: string;
  readonly name: string;
  readonly onDelete: 'cascade' | null;
  /** True between two distributed tables: `(brand_id, column) -> (brand_id, id)`. */
  readonly composite: boolean;
}

export interface DistributionStep {
  readonly phase: DistributionPhase;
  readonly table: string;
  readonly sql: string;
}

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

/** Postgres's name for a table's primary key: `<table>_pkey`, the table name cut to fit 63 bytes. */
export function primaryKeyName(table: string): string {
  return `${table.slice(0, 63 - '_pkey'.length)}_pkey`;
}

const literal = (table: string): string => `'${quoteIdentifier(table).slice(1, -1)}'`;

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

/** The plan for a schema: each table's role, the DDL in order, and what stands in the way. */
export function planDistribution(schema: SchemaPlan): DistributionPlan {
  const problems: string[] = [];
  const roles = new Map<string, DistributionRole>();
  for (const table of schema.tables) roles.set(table.name, ROLE_OF_SCOPE[table.scope]);
  for (const table of SERVICE_TABLES) roles.set(table.name, 'reference');

  const tenant = schema.tables.find((table) => table.scope === 'tenant') ?? null;
  if (!tenant) problems.push("no tenant table (scope 'tenant'): the brands must be a reference table");
  const tenantIdType = tenant?.columns.find((column) => column.name === 'id')?.type ?? null;
  const distributed = schema.tables.filter((table) => roles.get(table.name) === 'distributed');
  for (const table of distributed) problems.push(...tableProblems(table, tenantIdType));
  const hasNotNullBrandId = (name: string): boolean =>
    schema.tables.find((t) => t.name === name)?.columns.some((c) => c.name === DISTRIBUTION_COLUMN && !c.nullable) ?? false;

  for (const index of schema.indexes) {
    if (roles.get(index.table) === 'distributed' && index.unique && !index.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push(`${index.name}: a unique index on a distributed table must include ${DISTRIBUTION_COLUMN}`);
    }
  }

  const foreignKeys: ForeignKeyPlan[] = [];
  for (const table of schema.tables) {
    for (const column of table.columns) {
      if (column.references === null) continue;
      const name = indexName({ table: table.name, columns: [column.name], suffix: 'fkey' });
      const composite = roles.get(table.name) === 'distributed' && roles.get(column.references) === 'distributed';
      foreignKeys.push({ table: table.name, column: column.name, references: column.references, name, onDelete: null, composite });
    }
  }
  for (const table of SERVICE_TABLES) {
    for (const key of table.foreignKeys) foreignKeys.push({ table: table.name, ...key, composite: false });
  }
  for (const key of foreignKeys) {
    const target = roles.get(key.references);
    if (target === undefined) problems.push(`${key.table}.${key.column} references ${key.references}, which is not in the schema`);
    else if (roles.get(key.table) === 'reference' && target === 'distributed') {
      problems.push(`${key.table}.${key.column} -> ${key.references}: a reference table cannot point at a distributed table`);
    } else if (key.composite && !(hasNotNullBrandId(key.table) && hasNotNullBrandId(key.references))) {
      problems.push(`${key.table}.${key.column} -> ${key.references}: cannot be made composite on ${DISTRIBUTION_COLUMN}`);
    }
  }

  // Colocate with the most referenced distributed table (a name for the group; any member would do).
  const incoming = (name: string): number => foreignKeys.filter((key) => key.composite && key.references === name).length;
  const colocateWith = [...distributed].sort((a, b) => incoming(b.name) - incoming(a.name) || a.name.localeCompare(b.name))[0]?.name ?? null;

  const steps: DistributionStep[] = [];
  const add = (phase: DistributionPhase, table: string, sql: string): void => {
    steps.push({ phase, table, sql });
  };
  for (const key of foreignKeys) {
    add('drop-foreign-keys', key.table, `alter table ${quoteIdentifier(key.table)} drop constraint ${quoteIdentifier(key.name)}`);
  }
  for (const table of distributed) {
    const name = quoteIdentifier(primaryKeyName(table.name));
    add('primary-keys', table.name, `alter table ${quoteIdentifier(table.name)} drop constraint ${name}, add constraint ${name} primary key ("${DISTRIBUTION_COLUMN}", "id")`);
  }
  const references = [
    ...(tenant ? [tenant.name] : []),
    ...schema.tables.filter((t) => t !== tenant && roles.get(t.name) === 'reference').map((t) => t.name),
    ...SERVICE_TABLES.map((t) => t.name),
  ];
  for (const table of references) add('reference-tables', table, `select create_reference_table(${literal(table)})`);
  for (const table of [...distributed].sort((a, b) => Number(b.name === colocateWith) - Number(a.name === colocateWith))) {
    const group = table.name === colocateWith ? 'none' : colocateWith!;
    add('distributed-tables', table.name, `select create_distributed_table(${literal(table.name)}, '${DISTRIBUTION_COLUMN}', colocate_with => '${group}')`);
  }
  for (const key of foreignKeys) {
    const [from, to] = key.composite
      ? [`"${DISTRIBUTION_COLUMN}", ${quoteIdentifier(key.column)}`, `"${DISTRIBUTION_COLUMN}", "id"`]
      : [quoteIdentifier(key.column), '"id"'];
    const action = key.onDelete === 'cascade' ? ' on delete cascade' : '';
    add('foreign-keys', key.table, `alter table ${quoteIdentifier(key.table)} add constraint ${quoteIdentifier(key.name)} foreign key (${from}) references ${quoteIdentifier(key.references)} (${to})${action}`);
  }

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

/** The plan as one SQL script, stage by stage, for a person to review and run on the coordinator. */
export function distributionSql(plan: DistributionPlan): string {
  const lines = [
    '-- Distribution of the schema by brand_id over Citus, generated from the resource registry',
    '-- (src/db/schema/distribution-plan.ts; docs/CAPACITY.md says what it takes and why).',
    '-- Before: Citus on every node, the workers added, and `create extension` of citus, pg_trgm',
    '-- and btree_gin on the coordinator (Citus propagates them to the workers).',
    '-- knex_migrations and knex_migrations_lock stay plain tables on the coordinator.',
    `-- ${plan.tables.filter((t) => t.role === 'distributed').length} distributed tables (colocated with ${plan.colocateWith ?? 'none'}), ${plan.tables.filter((t) => t.role === 'reference').length} reference tables.`,
  ];
  let phase: DistributionPhase | null = null;
  for (const step of plan.steps) {
    if (step.phase !== phase) {
      phase = step.phase;
      lines.push('', `-- ${DISTRIBUTION_PHASES[phase].order}. ${DISTRIBUTION_PHASES[phase].title}`);
    }
    lines.push(`${step.sql};`);
  }
  return `${lines.join('\n')}\n`;
}
