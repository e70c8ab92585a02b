import { createHash } from 'node:crypto';
import type { Scope } from '../definition/resource-definition.ts';

/**
 * The shapes of a schema plan (plan-schema.ts), apart so that every planner
 * (the families' tables, the changes feed's objects) can use them.
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

/** A trigger function: `create or replace function "<name>"() returns trigger language plpgsql as $$<body>$$`. */
export interface FunctionPlan {
  readonly name: string;
  /** The plpgsql source, as `pg_proc.prosrc` keeps it. */
  readonly body: string;
}

/**
 * A trigger of a table. Every planned trigger fires in every session
 * (`ENABLE ALWAYS`): a session with `session_replication_role = replica`,
 * such as a logical-replication subscription's apply, skips the others.
 */
export interface TriggerPlan {
  readonly table: string;
  readonly name: string;
  readonly timing: 'before' | 'after';
  /** `row`: once per row written; `statement`: once per statement (a `truncate` trigger is one). */
  readonly level: 'row' | 'statement';
  readonly events: readonly ('insert' | 'update' | 'delete' | 'truncate')[];
  /** A `WHEN (...)` condition, or null. */
  readonly when: string | null;
  readonly function: string;
}

export interface SyncPlan {
  readonly tables: readonly TablePlan[];
  readonly functions: readonly FunctionPlan[];
  readonly triggers: readonly TriggerPlan[];
  readonly indexes: readonly IndexPlan[];
}

export interface SchemaPlan {
  readonly tables: readonly TablePlan[];
  readonly indexes: readonly IndexPlan[];
  /** The changes feed's objects (plan-sync.ts): its tables, trigger functions, triggers and indexes. */
  readonly sync?: SyncPlan;
}

/** Postgres truncates identifiers at 63 bytes: keep names short and unique. */
export function indexName({ table, columns, suffix }: { table: string; columns: readonly string[]; suffix: string }): string {
  const name = `${table}_${columns.join('_')}_${suffix}`;
  if (name.length <= 63) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, 63 - hash.length - suffix.length - 2)}_${hash}_${suffix}`;
}
