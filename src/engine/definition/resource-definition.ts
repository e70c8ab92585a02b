/**
 * The declared shape of a resource family: what a file in `resources/` writes.
 *
 * A definition is data. The engine normalizes it once at start-up
 * (`normalize-resource.ts`) into the frozen `Resource` of `resource.ts`, and
 * everything else (routes, validators, queries, cursors, OpenAPI, migrations)
 * is derived from that.
 *
 * @example
 * ```ts
 * export default defineResource({
 *   path: 'products',
 *   scope: 'brand',
 *   area: 'catalog',
 *   joins: { category: { table: 'categories', on: { category_id: 'id' } } },
 *   fields: {
 *     id: { type: 'uuid', nullable: false },
 *     code: { type: 'string' },
 *     category: { type: 'string', from: 'category.name' },
 *     categoryId: { type: 'uuid', references: 'categories', hidden: true },
 *     createdAt: { type: 'timestamp', nullable: false },
 *   },
 *   filters: {
 *     code: { field: 'code', match: 'exact' },
 *     category: { field: 'categoryId', match: 'exact' },
 *     search: { fields: ['name', 'code'], match: 'contains-ci' },
 *   },
 *   sorts: ['code', 'name'],
 *   countable: ['status'],
 * });
 * ```
 */

/** Value types of a field. Each owns its column type, SQL read and JSON Schema (`field-types.ts`). */
export type FieldType =
  | 'uuid'
  | 'string'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'json'
  | 'enum';

/**
 * Who may see a family's rows (CONTRACT.md §1).
 * - `brand`: every row belongs to one brand (`brand_id not null`).
 * - `shared`: rows belong to one brand, or to every brand when `brand_id` is null.
 * - `tenant`: the family is the brand itself (`brands`); it has no list route,
 *   and its one record is the brand named in the path.
 */
export type Scope = 'brand' | 'shared' | 'tenant';

/**
 * The part of a brand's data a family belongs to (CONTRACT.md §4): the
 * OpenAPI document groups the families by it, and a key may be restricted to
 * some areas.
 */
export type Area = 'catalog' | 'sourcing' | 'orders' | 'logistics' | 'finance' | 'documents' | 'reference';

/**
 * How a filter compares its value (`match-kinds.ts` holds each kind's SQL and
 * JSON Schema). `gte`, `gt`, `lte` and `lt` are the bounds of a range
 * (`<field>[gte]`), which the engine makes for every field a family lists in
 * `ranges`; `since` is `gte` under the older names `createdSince` and
 * `updatedSince`.
 */
export type MatchKind = 'exact' | 'contains-ci' | 'since' | 'gte' | 'gt' | 'lte' | 'lt';

/** One field of the record. */
export interface FieldDefinition {
  type: FieldType;
  /** Column name; defaults to the field name in snake case (`lengthCm` -> `length_cm`). */
  column?: string;
  /**
   * Read from a joined table instead of a column of this table: `'<join>.<column>'`.
   * Such a field has no column of its own.
   */
  from?: string;
  /** Whether the value may be null (and the column is nullable). Default `true`. */
  nullable?: boolean;
  /** Allowed values of an `enum` field. */
  values?: readonly string[];
  /** Path of the family this id points at; the migration declares a foreign key. */
  references?: string;
  /** The value is unique within a brand (or, for the tenant family, across the service). */
  unique?: boolean;
  /**
   * A column the engine needs (for a filter or an include) that is not part of
   * the record, such as the `category_id` behind a product's `category` label.
   */
  hidden?: boolean;
  /** One line for the docs. */
  description?: string;
}

/** A to-one join used by computed fields (`from`) and by filters on a related table. */
export interface JoinDefinition {
  /** Table joined; it must be the table of a family in the registry. */
  table: string;
  /** `{ <column of this table>: <column of the joined table> }`, exactly one pair. */
  on: Readonly<Record<string, string>>;
}

/**
 * A query parameter that narrows a list.
 * It targets either one or more fields (`field` / `fields`), or a column of a
 * join (`column: '<join>.<column>'` with its `type`).
 */
export interface FilterDefinition {
  match: MatchKind;
  field?: string;
  fields?: readonly string[];
  column?: string;
  type?: FieldType;
  values?: readonly string[];
  description?: string;
}

/**
 * Related records embedded on request (`?include=<name>`).
 * `on` pairs a field of this family with a field of the related one. When the
 * related field is its `id` the include is to-one (an object or null);
 * otherwise it is to-many (an array ordered like a list).
 */
export interface IncludeDefinition {
  resource: string;
  on: Readonly<Record<string, string>>;
  description?: string;
}

/** Everything a family declares. */
export interface ResourceDefinition {
  /** URL segment after `/brands/{brand}/`; also the file name in `resources/`. */
  path: string;
  /** Table; defaults to the path in snake case. */
  table?: string;
  scope: Scope;
  /** The part of the brand's data it belongs to; the tenant family's is `reference`. */
  area: Area;
  /** The family's name as the spec writes it ("Carton Sizes"); defaults from the path. */
  title?: string;
  description?: string;
  fields: Readonly<Record<string, FieldDefinition>>;
  joins?: Readonly<Record<string, JoinDefinition>>;
  filters?: Readonly<Record<string, FilterDefinition>>;
  includes?: Readonly<Record<string, IncludeDefinition>>;
  /**
   * Fields a list may be ordered by, `sort=<field>` or `sort=-<field>`
   * (CONTRACT.md §8): strings, enums, integers, decimals, dates and
   * timestamps of this table. `createdAt` and `updatedAt` sort without being
   * listed. Each gets the index `(brand_id, <column>, created_at, id)`.
   */
  sorts?: readonly string[];
  /**
   * Date, timestamp, integer and decimal fields of this table that take
   * `<field>[gte]`, `[gt]`, `[lte]` and `[lt]`; `createdAt` and `updatedAt`
   * take them without being listed. Each gets the same index as a sort.
   */
  ranges?: readonly string[];
  /**
   * Fields whose values `GET /brands/{brand}/<path>/counts?by=<field>` counts:
   * enumerated and status-like fields and references (uuid, string, enum,
   * integer, boolean or date fields of this table). Each gets the same index
   * as a sort, which the count reads alone.
   */
  countable?: readonly string[];
}
