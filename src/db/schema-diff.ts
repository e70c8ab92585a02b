import type { Knex } from 'knex';
import { indexName, type ColumnPlan, type IndexPlan, type SchemaPlan, type TablePlan } from '../engine/table-plan.ts';

/**
 * Compares a live schema with the registry's plan. What is missing comes back
 * as DDL statements (a new migration is generated from them); what disagrees
 * and cannot be added safely comes back as problems for a person to decide.
 */

interface LiveColumn {
  readonly table: string;
  readonly column: string;
  readonly dataType: string;
  readonly nullable: boolean;
}

interface LiveIndex {
  readonly table: string;
  readonly method: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
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
}

export interface SchemaDiff {
  /** DDL that brings the live schema to the plan, in a safe order. */
  readonly statements: readonly string[];
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
    `select t.relname as "table", am.amname as "method", ix.indisunique as "unique",
            array_to_string(array(select a.attname from unnest(ix.indkey) with ordinality k(attnum, ord)
              join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.ord), ',') as "columns"
       from pg_index ix
       join pg_class t on t.oid = ix.indrelid
       join pg_class i on i.oid = ix.indexrelid
       join pg_am am on am.oid = i.relam
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema()`,
  )) as Rows<Omit<LiveIndex, 'columns'> & { columns: string }>;
  const foreignKeys = (await db.raw(
    `select c.conrelid::regclass::text as "table", a.attname as "column", c.confrelid::regclass::text as "references"
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = current_schema()`,
  )) as Rows<LiveForeignKey>;
  return {
    columns: columns.rows,
    indexes: indexes.rows.map((index) => ({ ...index, columns: index.columns.split(',') })),
    foreignKeys: foreignKeys.rows,
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

function createIndex(index: IndexPlan): string {
  const columns = index.method === 'gin'
    ? index.columns.map((c) => `"${c}" gin_trgm_ops`).join(', ')
    : index.columns.map((c) => `"${c}"`).join(', ');
  return `create ${index.unique ? 'unique ' : ''}index "${index.name}" on "${index.table}" using ${index.method} (${columns})`;
}

/** What the live schema lacks of the plan. */
export function diffSchema(plan: SchemaPlan, live: LiveSchema): SchemaDiff {
  const creates: string[] = [];
  const alters: string[] = [];
  const foreignKeys: string[] = [];
  const problems: string[] = [];
  const liveColumns = new Map(live.columns.map((c) => [`${c.table}.${c.column}`, c]));
  const liveTables = new Set(live.columns.map((c) => c.table));

  for (const table of plan.tables) {
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
  const indexes = plan.indexes
    .filter((index) => !live.indexes.some((found) =>
      found.table === index.table && found.method === index.method && found.unique === index.unique
      && found.columns.join(',') === index.columns.join(',')))
    .map(createIndex);
  return { statements: [...creates, ...alters, ...foreignKeys, ...indexes], problems };
}
