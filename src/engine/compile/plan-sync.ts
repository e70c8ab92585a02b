import { indexName, type ColumnPlan, type FunctionPlan, type IndexPlan, type SyncPlan, type TablePlan, type TriggerPlan } from './schema-plan.ts';
import type { Resource } from '../definition/resource.ts';

/**
 * What the changes feed (CONTRACT.md §6) needs of the database, planned for
 * every brand-owned and shared family alike, so a new family gets it with no
 * line of its own:
 *
 * - a column `sync_xid`: the id of the transaction that last wrote the row,
 *   set by a `BEFORE INSERT OR UPDATE` row trigger whatever the writer sends;
 *   indexes `(brand_id, sync_xid, id)` and `(brand_id, id)` serve small and
 *   large batches;
 * - one table of tombstones, written by an `AFTER DELETE` row trigger, and by
 *   an `AFTER UPDATE` trigger when a row's brand or id changes (a delete of
 *   the old id for the old brand);
 * - one table of truncations, written by a `BEFORE TRUNCATE` statement
 *   trigger: a `TRUNCATE` cannot list the rows it removes, so it records
 *   which brands had rows in the table (read under the truncation's lock, so
 *   no other writer adds one meanwhile), or, when it cannot tell (rows
 *   without a brand, a transaction whose snapshot is older than the lock),
 *   every brand (a null brand). A token older than it is refused (410).
 *
 * Every trigger is `ENABLE ALWAYS`: it fires in a session with
 * `session_replication_role = replica` too, which is how a logical
 * replication subscription applies rows (and how bulk loaders skip triggers).
 *
 * Transaction ids, not clocks: a transaction's id is known before it commits,
 * and a snapshot says which ids had committed when it was taken, so a reader
 * can tell exactly what it has and has not seen (see changes-queries.ts).
 */

/** The column each family's rows carry. */
export const SYNC_COLUMN = 'sync_xid';
/** The table of deleted (and moved-away) rows. */
export const TOMBSTONE_TABLE = 'sync_tombstones';
/** The table of truncations: which brands' rows of which table a `TRUNCATE` removed, and when. */
export const TRUNCATION_TABLE = 'sync_truncations';
/** The triggers every family's table gets (the benchmark turns them off to weigh them). */
export const SYNC_TRIGGERS = Object.freeze({ stamp: 'sync_stamp', delete: 'sync_tombstone_delete', move: 'sync_tombstone_move', truncate: 'sync_truncate' });

export const SYNC_COLUMN_PLAN: ColumnPlan = Object.freeze({
  name: SYNC_COLUMN,
  type: 'xid8',
  dataType: 'xid8',
  nullable: false,
  default: 'pg_current_xact_id()',
  references: null,
});

const column = (plan: Pick<ColumnPlan, 'name' | 'type' | 'dataType'> & Partial<ColumnPlan>): ColumnPlan =>
  ({ nullable: false, default: null, references: null, ...plan });

/** `row_id`, not `id`: a row may be deleted again after it is inserted again, and an `id` column is a primary key. */
const TOMBSTONES: TablePlan = Object.freeze({
  name: TOMBSTONE_TABLE,
  scope: 'shared',
  columns: [
    column({ name: 'table_name', type: 'text', dataType: 'text' }),
    // Null for a shared row: its deletion reaches every brand. No foreign key: a brand's tombstones outlive nothing they need.
    column({ name: 'brand_id', type: 'uuid', dataType: 'uuid', nullable: true }),
    column({ name: 'row_id', type: 'uuid', dataType: 'uuid' }),
    SYNC_COLUMN_PLAN,
    column({ name: 'deleted_at', type: 'timestamptz', dataType: 'timestamp with time zone', default: 'now()' }),
  ],
});

/** A null brand: the truncation reached every brand's rows (shared rows, or brands the trigger could not list). */
const TRUNCATIONS: TablePlan = Object.freeze({
  name: TRUNCATION_TABLE,
  scope: 'shared',
  columns: [
    column({ name: 'table_name', type: 'text', dataType: 'text' }),
    column({ name: 'brand_id', type: 'uuid', dataType: 'uuid', nullable: true }),
    SYNC_COLUMN_PLAN,
    column({ name: 'truncated_at', type: 'timestamptz', dataType: 'timestamp with time zone', default: 'now()' }),
  ],
});

/**
 * The truncated table's brands, one index probe each (a skip scan of the
 * `(brand_id, id)` index). In read committed, this statement's snapshot is
 * taken after TRUNCATE locked the table, so it sees every row it removes; a
 * transaction of a stricter isolation may not, and records every brand.
 */
const TRUNCATION_BODY = [
  'begin',
  ` if current_setting('transaction_isolation') <> 'read committed' then`,
  `  execute format('insert into %I."${TRUNCATION_TABLE}" ("table_name", "brand_id") values ($1, null)', tg_table_schema) using tg_table_name; return null;`,
  ' end if;',
  ` execute format('insert into %I."${TRUNCATION_TABLE}" ("table_name", "brand_id") with recursive b("id") as (`
  + `(select "brand_id" from %I.%I where "brand_id" is not null order by "brand_id" limit 1) union all `
  + `select (select r."brand_id" from %I.%I r where r."brand_id" > b."id" order by r."brand_id" limit 1) from b where b."id" is not null) `
  + `select %L, b."id" from b where b."id" is not null union all select %L, null where exists (select 1 from %I.%I where "brand_id" is null)', `
  + 'tg_table_schema, tg_table_schema, tg_table_name, tg_table_schema, tg_table_name, tg_table_name, tg_table_name, tg_table_schema, tg_table_name);',
  ' return null;',
  'end;',
].join(' ');

/**
 * The functions name their tables with the schema of the table that fired
 * them: a subscription's apply worker runs with an empty `search_path`.
 */
const FUNCTIONS: readonly FunctionPlan[] = Object.freeze([
  { name: 'sync_stamp', body: `begin new."${SYNC_COLUMN}" := pg_current_xact_id(); return new; end;` },
  {
    name: 'sync_tombstone',
    body: `begin execute format('insert into %I."${TOMBSTONE_TABLE}" ("table_name", "brand_id", "row_id", "${SYNC_COLUMN}") values ($1, $2, $3, pg_current_xact_id())', tg_table_schema)`
      + ` using tg_table_name, old."brand_id", old."id"; return null; end;`,
  },
  { name: 'sync_truncation', body: TRUNCATION_BODY },
]);

function btree(table: string, columns: string[]): IndexPlan {
  return { table, method: 'btree', columns, unique: false, name: indexName({ table, columns, suffix: 'idx' }) };
}

/** The feed's schema for every family but the tenant. */
export function planSync(resources: readonly Resource[]): SyncPlan {
  const owned = resources.filter((resource) => resource.scope !== 'tenant').map((resource) => resource.table);
  return {
    tables: [TOMBSTONES, TRUNCATIONS],
    functions: FUNCTIONS,
    triggers: owned.flatMap((table): TriggerPlan[] => [
      { table, name: SYNC_TRIGGERS.stamp, timing: 'before', level: 'row', events: ['insert', 'update'], when: null, function: 'sync_stamp' },
      { table, name: SYNC_TRIGGERS.delete, timing: 'after', level: 'row', events: ['delete'], when: null, function: 'sync_tombstone' },
      // A row that leaves the brand, or whose id changes, is gone from where the copy has it.
      {
        table, name: SYNC_TRIGGERS.move, timing: 'after', level: 'row', events: ['update'],
        when: 'old."brand_id" is distinct from new."brand_id" or old."id" is distinct from new."id"', function: 'sync_tombstone',
      },
      // Before: the rows are still there to tell whose they were.
      { table, name: SYNC_TRIGGERS.truncate, timing: 'before', level: 'statement', events: ['truncate'], when: null, function: 'sync_truncation' },
    ]),
    indexes: [
      // A small batch reads the version index; a large one walks the ids (changes-queries.ts).
      ...owned.flatMap((table) => [btree(table, ['brand_id', SYNC_COLUMN, 'id']), btree(table, ['brand_id', 'id'])]),
      btree(TOMBSTONE_TABLE, ['table_name', 'brand_id', SYNC_COLUMN, 'row_id']),
      btree(TOMBSTONE_TABLE, ['table_name', 'brand_id', 'row_id']),
      btree(TOMBSTONE_TABLE, ['deleted_at']),
      btree(TRUNCATION_TABLE, ['table_name', SYNC_COLUMN]),
    ],
  };
}
