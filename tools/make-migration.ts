/**
 * `npm run db:make-migration -- <name>`: writes the migration that brings the
 * schema of the existing migrations to what the registry declares (new
 * tables, columns, foreign keys and indexes, and the drop of indexes the
 * registry no longer plans, rebuilt by `down`). It migrates a throwaway
 * embedded database, compares, and writes `migrations/<timestamp>_<name>.ts`.
 * Type or nullability changes are reported, not written: they need a person.
 *
 * New indexes on tables that already exist go to a second migration,
 * `<timestamp+1>_<name>_indexes.ts`, that builds them without blocking the
 * writer (render-concurrent-indexes.ts); indexes of new tables stay with
 * their table.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../knexfile.ts';
import { migrateToLatest } from '../src/db/schema/migrate-to-latest.ts';
import { openEmbedded } from '../src/db/connection/open-database.ts';
import { diffSchema, introspectSchema } from '../src/db/schema/schema-diff.ts';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { planSchema } from '../src/engine/compile/plan-schema.ts';
import { renderMigration } from './db/render-migration.ts';
import { renderConcurrentIndexes } from './db/render-concurrent-indexes.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:make-migration -- <name_in_snake_case>');
  process.exit(2);
}

const registry = await loadRegistry();
const database = await openEmbedded({ dir: null });
try {
  await migrateToLatest(database.db);
  const diff = diffSchema(planSchema(registry), await introspectSchema(database.db));
  for (const problem of diff.problems) console.error(`needs a hand-written migration: ${problem}`);
  if (diff.statements.length === 0) {
    console.log('The migrations already match the registry; nothing to write.');
  } else {
    const created = new Set(diff.statements.flatMap((statement) => /^create table "([^"]+)"/.exec(statement)?.[1] ?? []));
    const onExisting = (statement: string): boolean => {
      const table = /^create (?:unique )?index "[^"]+" on "([^"]+)"/.exec(statement)?.[1];
      return table !== undefined && !created.has(table);
    };
    const generatedBy = 'npm run db:make-migration';
    const stamp = new Date();
    const at = (date: Date): string => date.toISOString().replace(/\D/g, '').slice(0, 14);
    const rest = diff.statements.filter((statement) => !onExisting(statement));
    const concurrent = diff.statements.filter(onExisting);
    if (rest.length > 0) {
      const file = join(MIGRATIONS_DIR, `${at(stamp)}_${name}.ts`);
      await writeFile(file, renderMigration({ statements: rest, dropped: diff.dropped, generatedBy }));
      console.log(`Wrote ${file} (${rest.length} statements).`);
    }
    if (concurrent.length > 0) {
      // A second later, so it runs after the tables and columns it may index.
      const file = join(MIGRATIONS_DIR, `${at(new Date(stamp.getTime() + 1000))}_${name}_indexes.ts`);
      await writeFile(file, renderConcurrentIndexes({ statements: concurrent, generatedBy }));
      console.log(`Wrote ${file} (${concurrent.length} indexes, built concurrently).`);
    }
  }
  process.exitCode = diff.problems.length > 0 ? 1 : 0;
} finally {
  await database.close();
}
