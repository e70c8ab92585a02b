import { FIELD_TYPES } from './field-types.ts';
import { MATCH_KINDS } from './match-kinds.ts';
import type { Registry } from '../definition/registry.ts';
import type { Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';
import { indexName, type ColumnPlan, type IndexPlan, type SchemaPlan, type TablePlan } from './schema-plan.ts';
import { planSync, SYNC_COLUMN_PLAN } from './plan-sync.ts';

export { indexName, type ColumnPlan, type IndexPlan, type SchemaPlan, type TablePlan };
export type { FunctionPlan, SyncPlan, TriggerPlan } from './schema-plan.ts';

/**
 * The database the registry needs: every table, column, foreign key and
 * index. Migrations are generated from it (`tools/make-migration.ts`) and a
 * test checks the migrated schema against it, so definitions and tables
 * cannot drift apart.
 */

function tablePlan({ resource, registry, tenantTable }: { resource: Resource; registry: Registry; tenantTable: string }): TablePlan {
  const columns: ColumnPlan[] = [];
  const add = (column: Omit<ColumnPlan, 'dataType'>): void => {
    const dataType = Object.values(FIELD_TYPES).find((t) => t.columnType === column.type)!.dataType;
    columns.push({ ...column, dataType });
  };
  for (const field of resource.fields) {
    if (field.column === null) continue;
    const isId = field.name === 'id';
    add({
      name: field.column,
      type: FIELD_TYPES[field.type].columnType,
      nullable: field.nullable,
      // Defaults let a writer insert only the columns it knows (CONTRACT.md §1).
      default: isId ? 'gen_random_uuid()' : !field.nullable && field.type === 'timestamp' ? 'now()' : null,
      references: field.references ? registry.get(field.references).table : null,
    });
    if (isId && resource.scope !== 'tenant') {
      add({ name: 'brand_id', type: 'uuid', nullable: resource.scope === 'shared', default: null, references: tenantTable });
    }
  }
  // The changes feed's stamp (plan-sync.ts), last, so a migration adds it where a new table would have it.
  if (resource.scope !== 'tenant') columns.push(SYNC_COLUMN_PLAN);
  return { name: resource.table, scope: resource.scope, columns };
}

/**
 * Indexes that serve each list's order, each filter, each include, each
 * unique field, and each field a list sorts by, takes ranges on or counts
 * by (CONTRACT.md §8): `(brand_id, <column>, created_at, id)`, read forward
 * or backward, serves all three.
 */
function indexPlans(resource: Resource, registry: Registry): IndexPlan[] {
  const out: IndexPlan[] = [];
  const btree = ({ table, scope, column }: { table: string; scope: Scope; column: string }): void => {
    if (scope === 'tenant' || column === 'id') return; // the primary key serves these
    const columns = column === 'created_at' ? ['brand_id', 'created_at', 'id'] : ['brand_id', column, 'created_at', 'id'];
    out.push({ table, method: 'btree', columns, unique: false, name: indexName({ table, columns, suffix: 'idx' }) });
  };
  // Led by the brand, a search reads only the brand's matches, not every brand's. A shared table's
  // `(brand_id = ? or brand_id is null)` is served too: GIN cannot find nulls, so the planner searches
  // by the word alone, or by the brand with the keyset index finding the null-brand rows.
  const trigram = ({ table, scope, column }: { table: string; scope: Scope; column: string }): void => {
    const columns = scope === 'tenant' ? [column] : ['brand_id', column];
    out.push({ table, method: 'gin', columns, unique: false, name: indexName({ table, columns, suffix: 'trgm' }) });
  };

  btree({ table: resource.table, scope: resource.scope, column: 'created_at' });
  for (const field of resource.fields) {
    if (!field.unique || field.column === null) continue;
    const columns = resource.scope === 'tenant' ? [field.column] : ['brand_id', field.column];
    out.push({ table: resource.table, method: 'btree', columns, unique: true, name: indexName({ table: resource.table, columns, suffix: 'key' }) });
  }
  for (const filter of resource.filters) {
    for (const target of filter.targets) {
      const join = target.join === null ? null : resource.joins[target.join]!;
      if (join) btree({ table: resource.table, scope: resource.scope, column: join.localColumn });
      const table = join ? join.table : resource.table;
      const scope = join ? join.scope : resource.scope;
      if (MATCH_KINDS[filter.match].index === 'trigram') trigram({ table, scope, column: target.column });
      else btree({ table, scope, column: target.column });
    }
  }
  for (const field of [...resource.sorts, ...resource.ranges, ...resource.countable]) {
    btree({ table: resource.table, scope: resource.scope, column: field.sourceColumn });
  }
  for (const include of resource.includes) {
    const related = registry.get(include.resource);
    const remote = related.fields.find((field) => field.name === include.remoteField)!;
    if (remote.column !== null) btree({ table: related.table, scope: related.scope, column: remote.column });
  }
  return out;
}

/** The whole schema of a registry, indexes deduplicated. */
export function planSchema(registry: Registry): SchemaPlan {
  const tenant = registry.resources.find((resource) => resource.scope === 'tenant');
  if (!tenant) throw new Error("the registry has no tenant family (scope 'tenant'): brand-owned rows need one to belong to");
  const tables = registry.resources.map((resource) => tablePlan({ resource, registry, tenantTable: tenant.table }));
  const indexes = new Map<string, IndexPlan>();
  for (const resource of registry.resources) {
    for (const index of indexPlans(resource, registry)) {
      indexes.set(`${index.table}:${index.method}:${index.unique}:${index.columns.join(",")}`, index);
    }
  }
  return { tables, indexes: [...indexes.values()].sort((a, b) => a.name.localeCompare(b.name)), sync: planSync(registry.resources) };
}
