import { quoteIdentifier } from '../../engine/definition/naming.ts';
import type { SchemaPlan } from '../../engine/compile/plan-schema.ts';
import type { ForeignKeyPlan } from './distribution-foreign-keys.ts';
import { DISTRIBUTION_COLUMN, type DistributionRole } from './distribution-roles.ts';
import { SERVICE_TABLES } from './service-tables.ts';

/** Stages of the conversion. Statements run stage by stage, in this order. */
export type DistributionPhase = 'drop-foreign-keys' | 'primary-keys' | 'reference-tables' | 'distributed-tables' | 'foreign-keys';

export const DISTRIBUTION_PHASES: Readonly<Record<DistributionPhase, { readonly order: number; readonly title: string }>> = Object.freeze({
  'drop-foreign-keys': { order: 1, title: 'Drop every foreign key among these tables (added back at the end)' },
  'primary-keys': { order: 2, title: 'Brand-scoped tables: primary key (brand_id, id) instead of (id)' },
  'reference-tables': { order: 3, title: 'Reference tables: a copy on every node' },
  'distributed-tables': { order: 4, title: 'Distributed tables: sharded by brand_id, colocated' },
  'foreign-keys': { order: 5, title: 'Foreign keys back: composite between distributed tables, as before otherwise' },
});

export interface DistributionStep {
  readonly phase: DistributionPhase;
  readonly table: string;
  readonly sql: string;
}

/** Postgres's name for a table's primary key: `<table>_pkey`, the table name cut to fit 63 bytes. */
export function primaryKeyName(table: string): string {
  return `${table.slice(0, 63 - '_pkey'.length)}_pkey`;
}

const literal = (table: string): string => `'${quoteIdentifier(table).slice(1, -1)}'`;

/**
 * The conversion's statements, phase by phase: every foreign key dropped,
 * primary keys moved to (brand_id, id), the reference tables (the tenant
 * table first), the distributed tables (`colocateWith` first, the others
 * colocated with it), and the foreign keys back.
 */
export function distributionSteps({ schema, roles, foreignKeys, colocateWith }: {
  schema: SchemaPlan;
  roles: ReadonlyMap<string, DistributionRole>;
  foreignKeys: readonly ForeignKeyPlan[];
  colocateWith: string | null;
}): DistributionStep[] {
  const steps: DistributionStep[] = [];
  const add = (phase: DistributionPhase, table: string, sql: string): void => {
    steps.push({ phase, table, sql });
  };
  const tenant = schema.tables.find((table) => table.scope === 'tenant') ?? null;
  const distributed = schema.tables.filter((table) => roles.get(table.name) === 'distributed');
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
  for (const key of foreignKeys) add('foreign-keys', key.table, addForeignKeySql(key));
  return steps;
}

/** `alter table ... add constraint ... foreign key`: on (brand_id, column) -> (brand_id, id) when composite. */
function addForeignKeySql(key: ForeignKeyPlan): string {
  const [from, to] = key.composite
    ? [`"${DISTRIBUTION_COLUMN}", ${quoteIdentifier(key.column)}`, `"${DISTRIBUTION_COLUMN}", "id"`]
    : [quoteIdentifier(key.column), '"id"'];
  const action = key.onDelete === 'cascade' ? ' on delete cascade' : '';
  return `alter table ${quoteIdentifier(key.table)} add constraint ${quoteIdentifier(key.name)} foreign key (${from}) references ${quoteIdentifier(key.references)} (${to})${action}`;
}
