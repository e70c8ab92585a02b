import type { Knex } from 'knex';
import type pg from 'pg';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import * as listQuestionsIndexes from '../../migrations/20261128000133_list_questions_indexes.ts';

/**
 * The indexes the list questions' declarations added (CONTRACT.md §8), as
 * their migration builds them: concurrently, outside a transaction, each
 * one missing built and each one valid kept. The bench drops those on
 * `products` to weigh what they cost writers and how their build goes on
 * the loaded data, and puts them back by running the migration's own `up`.
 */
export const LIST_QUESTIONS_MIGRATION = '20261128000133_list_questions_indexes';

/** One index the migration builds. */
export interface MigrationIndex {
  readonly name: string;
  readonly table: string;
  /** Its `create index concurrently ...` statement. */
  readonly ddl: string;
}

const CREATE = /^create index concurrently "([^"]+)" on "([^"]+)"/;

/**
 * Every index the migration builds, in its order: its `up` run against a
 * stand-in for knex that says no index exists yet and records each
 * statement it would run, so the list is the migration's own, not a copy.
 */
export async function migrationIndexes(): Promise<MigrationIndex[]> {
  const statements: string[] = [];
  const recorder = {
    raw: (sql: string): Promise<{ rows: unknown[] }> => {
      // The migration asks whether each index exists (`select indisvalid ...`): none does.
      if (!/^\s*select\b/i.test(sql)) statements.push(sql);
      return Promise.resolve({ rows: [] });
    },
  };
  await listQuestionsIndexes.up(recorder as unknown as Knex);
  return statements.map((ddl) => {
    const found = CREATE.exec(ddl);
    if (!found) throw new Error(`${LIST_QUESTIONS_MIGRATION} runs a statement the bench does not know: ${ddl}`);
    return { name: found[1]!, table: found[2]!, ddl };
  });
}

/** The migration's indexes on one table (`products`: the `name` sort's, and any other it adds there). */
export async function tableIndexes(table: string): Promise<MigrationIndex[]> {
  const on = (await migrationIndexes()).filter((index) => index.table === table);
  if (on.length === 0) throw new Error(`${LIST_QUESTIONS_MIGRATION} builds no index on ${table}`);
  return on;
}

/** Drops the indexes (those that exist). A plain `drop index`: the bench drops them while nothing else writes. */
export async function dropIndexes({ client, indexes }: { client: pg.Client; indexes: readonly MigrationIndex[] }): Promise<void> {
  for (const { name } of indexes) await client.query(`drop index if exists "${name}"`);
}

/** The names of the indexes that exist and are valid. */
export async function presentIndexes({ client, indexes }: { client: pg.Client; indexes: readonly MigrationIndex[] }): Promise<string[]> {
  const found = await client.query(
    `select c.relname as "name" from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = any($1::text[]) and i.indisvalid order by 1`,
    [indexes.map((index) => index.name)],
  );
  return found.rows.map((row: { name: string }) => row.name);
}

/**
 * Runs the migration's `up` on the database at `url`, on a connection of its
 * own as `npm run db:migrate` opens one (no statement timeout), and resolves
 * with the seconds it took: every index of the migration that is missing is
 * built, concurrently; those there are kept.
 */
export async function runMigrationUp(url: string): Promise<number> {
  const database = openPostgres({ url, poolMax: 1, boundStatements: false });
  try {
    const started = performance.now();
    await listQuestionsIndexes.up(database.db);
    return (performance.now() - started) / 1000;
  } finally {
    await database.close();
  }
}
