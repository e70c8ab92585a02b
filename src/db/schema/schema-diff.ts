import type { Knex } from 'knex';
import { indexName, type ColumnPlan, type IndexPlan, type SchemaPlan, type TablePlan } from '../../engine/compile/plan-schema.ts';
import { diffRoutines, introspectRoutines, type LiveFunction, type LiveTrigger } from './routine-diff.ts';

/**
 * Compares a live schema with the registry's plan. What is missing comes back
 * as DDL statements (a new migration is generated from them), and so does the
 * drop of an index on a registry table that the plan no longer has (a
 * changed index is a new one and the drop of the old); what disagrees and
 * cannot be changed safely comes back as problems for a person to decide.
 */

interface LiveColumn {
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly nullable: boolean;
}

interface LiveIndex {
  readonly name: string;
  readonly table: string;
  readonly method: string;
  readonly columns: readonly string[];
  /** Each column's operator class, or null for its type's default (`gin_trgm_ops` is never a default). */
  readonly opclasses: readonly (string | null)[];
  readonly unique: boolean;
  /**
   * No expression, no predicate and no constraint behind it: the kind of
   * index the plan describes, so one the plan lacks may be dropped. (Primary
   * keys and hand-written partial indexes are left alone.)
   */
  readonly plain: boolean;
}

interface LiveForeignKey {
  readonly table: string;
  readonly column: string;
  readonly references: string;
}

export interface LiveSchema {
  readonly columns: readonly LiveColumn[];
  readonly indexes: readonly LiveIndex[];
  readonly foreignKeys: readonly LiveForeignKey[];
  /** Trigger functions and user-made triggers (routine-diff.ts); absent: none. */
  readonly functions?: readonly LiveFunction[];
  readonly triggers?: readonly LiveTrigger[];
}

export interface SchemaDiff {
  /** DDL that brings the live schema to the plan, in a safe order: an index is dropped only after the one replacing it is built. */
  readonly statements: readonly string[];
  /**
   * For each index `statements` drop, by name, the DDL that builds it again
   * (a migration's `down`); for each trigger they replace, by
   * `replacedTriggerKey`, its former DDL.
   */
  readonly dropped: Readonly<Record<string, string>>;
  /** Disagreements no statement above resolves (type or nullability changes). */
  readonly problems: readonly string[];
}

type Rows<T> = { rows: T[] };

/** Reads tables, columns, indexes and foreign keys of the current schema. */
export async function introspectSchema(db: Knex): Promise<LiveSchema> {
  const columns = (await db.raw(
    `select table_name as "table", column_name as "column", data_type as "dataType", is_nullable = 'YES' as "nullable"
       from information_schema.columns where table_schema = current_schema()`,
  )) as Rows<LiveColumn>;
  const indexes = (await db.raw(
    `select i.relname as "name", t.relname as "table", am.amname as "method", ix.indisunique as "unique",
            array_to_string(array(select a.attname from unnest(ix.indkey) with ordinality k(attnum, ord)
              join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord), ',') as "columns",
            array_to_string(array(select case when c.opcdefault then '' else c.opcname end from unnest(ix.indclass) with ordinality k(oid, ord)
              join pg_opclass c on c.oid = k.oid order by k.ord), ',') as "opclasses",
            ix.indexprs is null and ix.indpred is null
              and not exists (select 1 from pg_constraint con where con.conindid = ix.indexrelid) as "plain"
       from pg_index ix
       join pg_class t on t.oid = ix.indrelid
       join pg_class i on i.oid = ix.indexrelid
       join pg_am am on am.oid = i.relam
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema()`,
  )) as Rows<Omit<LiveIndex, 'columns' | 'opclasses'> & { columns: string; opclasses: string }>;
  const foreignKeys = (await db.raw(
    `select c.conrelid::regclass::text as "table", a.attname as "column", c.confrelid::regclass::text as "references"
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = current_schema()`,
  )) as Rows<LiveForeignKey>;
  return {
    columns: columns.rows,
    indexes: indexes.rows.map((index) => ({
      ...index,
      columns: index.columns.split(','),
      opclasses: index.opclasses.split(',').map((opclass) => opclass || null),
    })),
    foreignKeys: foreignKeys.rows,
    ...(await introspectRoutines(db)),
  };
}

function columnDdl(column: ColumnPlan): string {
  const primary = column.name === 'id' ? ' primary key' : '';
  const notNull = !column.nullable && !primary ? ' not null' : '';
  const fallback = column.default ? ` default ${column.default}` : '';
  return `"${column.name}" ${column.type}${primary}${notNull}${fallback}`;
}

function createTable(table: TablePlan): string {
  return `create table "${table.name}" (\n  ${table.columns.map(columnDdl).join(',\n  ')}\n)`;
}

function foreignKey(table: string, column: ColumnPlan): string {
  const name = indexName({ table, columns: [column.name], suffix: 'fkey' });
  return `alter table "${table}" add constraint "${name}" foreign key ("${column.name}") references "${column.references}" ("id")`;
}

/** The operator class of each column of a planned index: a trigram GIN searches its last column by trigrams, the brand before it by btree_gin's default. */
function planOpclasses(index: IndexPlan): (string | null)[] {
  return index.columns.map((_, i) => (index.method === 'gin' && i === index.columns.length - 1 ? 'gin_trgm_ops' : null));
}

function createIndex(index: Omit<LiveIndex, 'plain'>): string {
  const columns = index.columns.map((c, i) => `"${c}"${index.opclasses[i] ? ` ${index.opclasses[i]}` : ''}`).join(', ');
  return `create ${index.unique ? 'unique ' : ''}index "${index.name}" on "${index.table}" using ${index.method} (${columns})`;
}

const sameIndex = (a: Omit<LiveIndex, 'name' | 'plain'>, b: Omit<LiveIndex, 'name' | 'plain'>): boolean =>
  a.table === b.table && a.method === b.method && a.unique === b.unique
  && a.columns.join(',') === b.columns.join(',') && a.opclasses.join(',') === b.opclasses.join(',');

/** What the live schema lacks of the plan, and the indexes it has that the plan does not. */
export function diffSchema(plan: SchemaPlan, live: LiveSchema): SchemaDiff {
  const creates: string[] = [];
  const alters: string[] = [];
  const foreignKeys: string[] = [];
  const problems: string[] = [];
  const liveColumns = new Map(live.columns.map((c) => [`${c.table}.${c.column}`, c]));
  const liveTables = new Set(live.columns.map((c) => c.table));

  const planTables = [...plan.tables, ...(plan.sync?.tables ?? [])];
  for (const table of planTables) {
    const isNew = !liveTables.has(table.name);
    if (isNew) creates.push(createTable(table));
    for (const column of table.columns) {
      const found = liveColumns.get(`${table.name}.${column.name}`);
      if (!isNew && !found) {
        if (!column.nullable && !column.default) {
          problems.push(`${table.name}.${column.name}: a new not-null column needs a default or a hand-written migration`);
        }
        alters.push(`alter table "${table.name}" add column ${columnDdl(column)}`);
      }
      if (found && found.dataType !== column.dataType) {
        problems.push(`${table.name}.${column.name}: the database has ${found.dataType}, the registry wants ${column.dataType}`);
      }
      if (found && found.nullable !== column.nullable) {
        problems.push(`${table.name}.${column.name}: the database says ${found.nullable ? 'null' : 'not null'}, the registry says ${column.nullable ? 'nullable' : 'not null'}`);
      }
      const hasKey = live.foreignKeys.some((k) => k.table === table.name && k.column === column.name && k.references === column.references);
      if (column.references && !hasKey) foreignKeys.push(foreignKey(table.name, column));
    }
  }
  const routines = diffRoutines({
    functions: plan.sync?.functions ?? [],
    triggers: plan.sync?.triggers ?? [],
    live: { functions: live.functions ?? [], triggers: live.triggers ?? [] },
  });
  problems.push(...routines.problems);
  const planned = [...plan.indexes, ...(plan.sync?.indexes ?? [])].map((index) => ({ ...index, opclasses: planOpclasses(index) }));
  const added = planned.filter((index) => !live.indexes.some((found) => sameIndex(found, index)));
  const tables = new Set(planTables.map((table) => table.name));
  const stale = live.indexes
    .filter((found) => found.plain && tables.has(found.table) && !planned.some((index) => sameIndex(found, index)))
    .sort((a, b) => a.name.localeCompare(b.name));
  // The old index serves reads until its replacement is built, unless the new one needs its name.
  const names = new Set(added.map((index) => index.name));
  const drop = (index: LiveIndex): string => `drop index if exists "${index.name}"`;
  return {
    statements: [
      ...creates, ...alters, ...foreignKeys, ...routines.statements,
      ...stale.filter((index) => names.has(index.name)).map(drop),
      ...added.map(createIndex),
      ...stale.filter((index) => !names.has(index.name)).map(drop),
    ],
    dropped: { ...Object.fromEntries(stale.map((index) => [index.name, createIndex(index)])), ...routines.replaced },
    problems,
  };
}
