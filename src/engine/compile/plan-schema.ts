import { createHash } from 'node:crypto';
import { FIELD_TYPES } from './field-types.ts';
import { MATCH_KINDS } from './match-kinds.ts';
import type { Registry } from '../definition/registry.ts';
import type { Resource } from '../definition/resource.ts';
import type { Scope } from '../definition/resource-definition.ts';

/**
 * The database the registry needs: every table, column, foreign key and
 * index. Migrations are generated from it (`tools/make-migration.ts`) and a
 * test checks the migrated schema against it, so definitions and tables
 * cannot drift apart.
 */

export interface ColumnPlan {
  readonly name: string;
  /** DDL type (`uuid`, `text`, `timestamptz`, ...). */
  readonly type: string;
  /** `information_schema` data type of that DDL type. */
  readonly dataType: string;
  readonly nullable: boolean;
  /** SQL default, or null. */
  readonly default: string | null;
  /** Table referenced by a foreign key on `id`, or null. */
  readonly references: string | null;
}

export interface IndexPlan {
  readonly table: string;
  /**
   * `gin` is a trigram index: its last column is searched with
   * `gin_trgm_ops`, the brand before it with btree_gin's default operator
   * class, as in `gin (brand_id, name gin_trgm_ops)`.
   */
  readonly method: 'btree' | 'gin';
  readonly columns: readonly string[];
  readonly unique: boolean;
  readonly name: string;
}

export interface TablePlan {
  readonly name: string;
  readonly scope: Scope;
  readonly columns: readonly ColumnPlan[];
}

export interface SchemaPlan {
  readonly tables: readonly TablePlan[];
  readonly indexes: readonly IndexPlan[];
}

/** Postgres truncates identifiers at 63 bytes: keep names short and unique. */
export function indexName({ table, columns, suffix }: { table: string; columns: readonly string[]; suffix: string }): string {
  const name = `${table}_${columns.join('_')}_${suffix}`;
  if (name.length <= 63) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, 63 - hash.length - suffix.length - 2)}_${hash}_${suffix}`;
}

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
  return { name: resource.table, scope: resource.scope, columns };
}

/** Indexes that serve each list's order, each filter, each include and each unique field. */
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
  return { tables, indexes: [...indexes.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}
