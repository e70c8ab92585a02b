import type { Knex } from 'knex';
import type { Resource } from '../engine/definition/resource.ts';

/** A record to write, by API field name (hidden fields included), such as `{ name, lengthCm }`. */
export type RecordInput = Readonly<Record<string, unknown>>;

/**
 * Writes records of a family through its definition: field names become
 * columns, JSON values are serialised, and the brand is set (null writes a
 * shared row). Used by the demo seed and by tests, so neither spells a column.
 */
export async function insertRecords({ db, resource, brandId, records }: {
  db: Knex;
  resource: Resource;
  brandId: string | null;
  records: readonly RecordInput[];
}): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((record) => {
    const row: Record<string, unknown> = resource.scope === 'tenant' ? {} : { brand_id: brandId };
    for (const [name, value] of Object.entries(record)) {
      const field = resource.fields.find((f) => f.name === name);
      if (!field || field.column === null) throw new Error(`${resource.path}: '${name}' is not a column field`);
      row[field.column] = field.type === 'json' && value !== null ? JSON.stringify(value) : value;
    }
    return row;
  });
  await db(resource.table).insert(rows);
}
