import { expect } from 'chai';
import { SERVICE_TABLES } from '../../../src/db/schema/service-tables.ts';
import { testDatabase } from '../../support/test-database.ts';

interface ForeignKeyRow {
  table: string;
  name: string;
  column: string;
  references: string;
  onDelete: string;
}

/** The service's own tables (SERVICE_TABLES), held against the migrated database. */
describe('SERVICE_TABLES', () => {
  it('are exactly the tables the migrations make beside the families\' own', async () => {
    const { db, registry } = await testDatabase();
    const rows = (await db.raw(`select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%'`)) as { rows: { tablename: string }[] };
    const families = new Set(registry.resources.map((resource) => resource.table));
    const others = rows.rows.map((row) => row.tablename).filter((table) => !families.has(table)).sort();
    expect(others).to.deep.equal(SERVICE_TABLES.map((table) => table.name).sort());
  });

  it('name each foreign key of theirs as the migration made it: its column, the table it references, and its delete rule', async () => {
    const { db } = await testDatabase();
    const names = SERVICE_TABLES.map((table) => table.name);
    const rows = (await db.raw(`
      select c.conrelid::regclass::text as "table", c.conname as "name", a.attname as "column", c.confrelid::regclass::text as "references",
             case c.confdeltype when 'c' then 'cascade' else 'other' end as "onDelete"
      from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.conrelid::regclass::text = any(?)
      order by 1, 2`, [names])) as { rows: ForeignKeyRow[] };
    const declared = SERVICE_TABLES.flatMap((table) => table.foreignKeys.map((key) => ({
      table: table.name, name: key.name, column: key.column, references: key.references, onDelete: key.onDelete ?? 'other',
    }))).sort((a, b) => `${a.table} ${a.name}`.localeCompare(`${b.table} ${b.name}`));
    expect(rows.rows).to.deep.equal(declared);
  });
});
