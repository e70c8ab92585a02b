import type { Area, FieldType, MatchKind, Scope } from './resource-definition.ts';

/**
 * The normalized, frozen form of a definition: every default filled in, every
 * name checked, every cross-reference resolved. The engine reads only this.
 */

/** A join, resolved against the family that owns the joined table. */
export interface Join {
  readonly name: string;
  readonly table: string;
  /** Column of this family's table. */
  readonly localColumn: string;
  /** Column of the joined table. */
  readonly foreignColumn: string;
  /** Scope of the joined family: decides how its rows are limited to the brand. */
  readonly scope: Scope;
}

export interface Field {
  readonly name: string;
  readonly type: FieldType;
  /** Column of this table, or null for a field read from a join. */
  readonly column: string | null;
  /** The join it is read from, or null for a column of this table. */
  readonly join: string | null;
  /** Column read: in this table, or in the joined one. */
  readonly sourceColumn: string;
  readonly nullable: boolean;
  readonly values: readonly string[] | null;
  /** Path of the family this id points at (a foreign key), or null. */
  readonly references: string | null;
  readonly unique: boolean;
  /** Not part of the record (a column that only filters or joins use). */
  readonly hidden: boolean;
  readonly description: string | null;
}

/** One column a filter compares, in this table (`join` null) or in a joined one. */
export interface FilterTarget {
  /** How the docs name it: the field, or `<join>.<column>`. */
  readonly label: string;
  readonly join: string | null;
  readonly column: string;
  readonly type: FieldType;
  readonly values: readonly string[] | null;
}

export interface Filter {
  readonly name: string;
  readonly match: MatchKind;
  readonly targets: readonly FilterTarget[];
  readonly description: string | null;
}

export interface Include {
  readonly name: string;
  /** Path of the related family. */
  readonly resource: string;
  /** Field of this family whose value is looked up. */
  readonly localField: string;
  /** Field of the related family that must equal it. */
  readonly remoteField: string;
  /** `one` when the related field is its `id`, `many` otherwise. */
  readonly cardinality: 'one' | 'many';
  readonly description: string | null;
}

export interface Resource {
  readonly path: string;
  readonly table: string;
  readonly scope: Scope;
  readonly area: Area;
  readonly title: string;
  readonly description: string | null;
  /** Every field, hidden ones included, in declared order. */
  readonly fields: readonly Field[];
  /** The fields of the record, in declared order. */
  readonly recordFields: readonly Field[];
  readonly joins: Readonly<Record<string, Join>>;
  /** The declared filters, then the engine's: `createdSince`/`updatedSince`, and each range field's four bounds. */
  readonly filters: readonly Filter[];
  readonly includes: readonly Include[];
  /**
   * The fields a list may be ordered by (CONTRACT.md §8): `createdAt`, then
   * `updatedAt` where the record has it, then the declared ones. Every one
   * is a column of this table.
   */
  readonly sorts: readonly Field[];
  /** The fields that take `[gte]`, `[gt]`, `[lte]` and `[lt]`: `createdAt`, `updatedAt` and the declared ones. */
  readonly ranges: readonly Field[];
  /** The fields `counts?by=` takes, in declared order. */
  readonly countable: readonly Field[];
}
