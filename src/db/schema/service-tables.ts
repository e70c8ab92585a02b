/** A foreign key of a table outside the registry. */
export interface ServiceForeignKey {
  readonly column: string;
  readonly references: string;
  /** The constraint's name in the migration (Postgres's default for an inline `references`). */
  readonly name: string;
  readonly onDelete: 'cascade' | null;
}

/** A table of the service itself, not generated from the registry. */
export interface ServiceTable {
  readonly name: string;
  readonly foreignKeys: readonly ServiceForeignKey[];
}

/**
 * The API key tables (`migrations/20261121000002_api_keys.ts`). They stay
 * with the primary's writes and NOTIFY on the coordinator; as reference
 * tables, the key check joins them with `brands` on any node.
 */
export const SERVICE_TABLES: readonly ServiceTable[] = Object.freeze([
  // The changes feed's tombstones (plan-sync.ts): planned with the registry's tables, but no family's.
  // Shared rows' deletions have no brand, so on Citus it is a reference table, as the key tables are.
  { name: 'sync_tombstones', foreignKeys: [] },
  // Its truncations (a null brand: every brand's rows), for the same reason.
  { name: 'sync_truncations', foreignKeys: [] },
  { name: 'api_keys', foreignKeys: [] },
  {
    name: 'api_key_brands',
    foreignKeys: [
      { column: 'key_id', references: 'api_keys', name: 'api_key_brands_key_id_fkey', onDelete: 'cascade' },
      { column: 'brand_id', references: 'brands', name: 'api_key_brands_brand_id_fkey', onDelete: 'cascade' },
    ],
  },
]);
