import { indexName, type SchemaPlan } from '../../engine/compile/plan-schema.ts';
import type { DistributionRole } from './distribution-roles.ts';
import { SERVICE_TABLES } from './service-tables.ts';

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

/** Every foreign key of the schema (named as the migrations name them), then those of `SERVICE_TABLES`. */
export function planForeignKeys({ schema, roles }: { schema: SchemaPlan; roles: ReadonlyMap<string, DistributionRole> }): ForeignKeyPlan[] {
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
  return foreignKeys;
}
