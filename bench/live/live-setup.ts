import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { openPostgres } from '../../src/db/connection/open-database.ts';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { databaseUrl, recreateDatabase } from '../data/bench-database.ts';

/** The bench's database: fresh, migrated, `brands` brands with one key each. */
export interface LiveDatabase {
  readonly url: string;
  readonly name: string;
  readonly db: Knex;
  /** Each brand with its key and its one carton size (the record the get phase asks for). */
  readonly brands: readonly { readonly id: string; readonly slug: string; readonly key: string; readonly seedId: string }[];
  /** A brand nobody follows: what the rest of the database's writer writes. */
  readonly elsewhere: { readonly id: string };
  /** Committed transactions of the database so far (`pg_stat_database.xact_commit`, asked from another database). */
  commits(): Promise<number>;
  close(): Promise<void>;
}

export const LIVE_DATABASE = 'bcat_bench_live';

export async function prepareLiveDatabase({ adminUrl, brands }: { adminUrl: string; brands: number }): Promise<LiveDatabase> {
  await recreateDatabase({ adminUrl, name: LIVE_DATABASE });
  const url = databaseUrl(adminUrl, LIVE_DATABASE);
  const { db, close } = openPostgres({ url, poolMax: 4, boundStatements: false });
  await migrateToLatest(db);
  const rows = (await db('brands').insert(Array.from({ length: brands }, (_, i) => ({ slug: `live-${i}`, name: `Live ${i}` }))).returning(['id', 'slug'])) as { id: string; slug: string }[];
  const made = [];
  for (const row of rows) {
    const { key } = await createKey(db, { brands: [row.slug], global: false, expiresAt: null });
    const [seed] = (await db('carton_sizes').insert({ brand_id: row.id, name: 'seed' }).returning('id')) as { id: string }[];
    made.push({ ...row, key, seedId: seed!.id });
  }
  const [elsewhere] = (await db('brands').insert({ slug: 'live-elsewhere', name: 'Live elsewhere' }).returning('id')) as { id: string }[];
  const stats = new pg.Client({ connectionString: adminUrl });
  await stats.connect();
  return {
    url, name: LIVE_DATABASE, db, brands: made, elsewhere: elsewhere!,
    async commits() {
      // Counters are flushed by each backend at most once a second: callers wait past that before they read.
      await stats.query('select pg_stat_clear_snapshot()');
      const { rows: [row] } = await stats.query('select xact_commit::bigint as n from pg_stat_database where datname = $1', [LIVE_DATABASE]);
      return Number(row.n);
    },
    async close() {
      await stats.end();
      await close();
    },
  };
}

/** A cursor secret for the server of one run. */
export const benchCursorSecret = (): string => randomBytes(32).toString('hex');
