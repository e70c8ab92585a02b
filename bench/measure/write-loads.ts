import type pg from 'pg';
import type { BrandRef, CaseName } from './cases.ts';
import { startPgbench, type BackgroundPgbench } from './pgbench.ts';
import { numberProducts, touchProductScript } from './product-writes.ts';

/**
 * Write loads the floor's cases are measured under again (issue 17): the
 * brands' systems write all day, and a server whose speed holds only on a
 * database nobody writes is not measured where it is used.
 */
export const WRITE_LOAD_NAMES = ['writes-other-brands', 'writes-own-brand', 'writes-big-brand'] as const;
export type WriteLoadName = (typeof WRITE_LOAD_NAMES)[number];

export interface WriteLoad {
  readonly title: string;
  /** Committed single-row updates per second. */
  readonly rate: number;
  /** Whose products are written: every brand but those the cases read, just those, or just the big one. */
  readonly brands: 'others' | 'read' | 'big';
}

export const WRITE_LOADS: Readonly<Record<WriteLoadName, WriteLoad>> = Object.freeze({
  'writes-other-brands': { title: '200 writes/s spread over the other brands', rate: 200, brands: 'others' },
  'writes-own-brand': { title: '20 writes/s to the brands being read', rate: 20, brands: 'read' },
  /**
   * Counts under writes made often enough that the server can reuse no
   * remembered count: at 1,000,000 products a count of the big brand takes
   * tens of milliseconds, and a write comes every 5 ms, so every count the
   * server runs finds the brand written since its last and counts again, as
   * the floor's `GROUP BY` does on every request (the share that did is
   * measured: fresh-counts.ts).
   */
  'writes-big-brand': { title: '200 writes/s to the big brand, so that every count is stale', rate: 200, brands: 'big' },
});

/** The cases measured under the first two loads, on the server and the floor alike. */
export const LOADED_CASES: readonly CaseName[] = Object.freeze(['get-by-id', 'first-page-small', 'first-page-big-filter']);

/**
 * The cases measured under each load: `LOADED_CASES`, and counts by status
 * (CONTRACT.md §8) where the writes reach the brand counted, so that the
 * server's remembered counts go stale and it counts again, as the floor's
 * `GROUP BY` does on every request: under writes to the brands read, and
 * under writes to the big brand alone, frequent enough that none is reused.
 */
export const LOADED_CASES_OF: Readonly<Record<WriteLoadName, readonly CaseName[]>> = Object.freeze({
  'writes-other-brands': LOADED_CASES,
  'writes-own-brand': Object.freeze([...LOADED_CASES, 'counts-status'] as CaseName[]),
  'writes-big-brand': Object.freeze(['counts-status'] as CaseName[]),
});

/** The cases measured under a load, in order. */
export function loadedCasesOf(load: WriteLoadName): CaseName[] {
  return [...LOADED_CASES_OF[load]];
}

/** Connections each loaded case runs with: a sync client's few, the usual 32, and many. */
export const LOADED_CONNECTIONS: readonly number[] = Object.freeze([2, 32, 256]);

/** The write load's sessions name themselves so: a run waiting for a quiet database does not wait for them. */
export const WRITE_LOAD_APPLICATION = 'bench-write-load';

/** Products a load picks from, numbered for pgbench. */
const IDS_TABLE = 'bench_write_load_ids';
/** Of each brand the cases read, the products a load writes: enough that a write seldom meets another on one row. */
const READ_BRAND_SAMPLE = 2_000;

/** The products the load writes: every other brand's, a sample of each brand read (the same number from each), or every one of the big brand's. */
export function productsOf({ load, read }: { load: WriteLoad; read: readonly BrandRef[] }): { sql: string; values: unknown[] } {
  const brands = read.map((brand) => brand.id);
  switch (load.brands) {
    case 'others':
      return { sql: 'select id from products where brand_id <> all($1::uuid[])', values: [brands] };
    case 'read':
      return {
        sql: `select id from (select id, row_number() over (partition by brand_id order by md5(id::text)) as k
                from products where brand_id = any($1::uuid[])) s where k <= $2`,
        values: [brands, READ_BRAND_SAMPLE],
      };
    case 'big':
      return { sql: 'select id from products where brand_id = $1', values: [brands[0]] };
  }
}

/** A write load running in the background; `stop()` ends it and says what it wrote. */
export interface RunningWriteLoad {
  stop(): Promise<{ writesPerSecond: number }>;
}

/**
 * Starts a write load: pgbench committing `rate` single-row updates a second
 * (two sessions, commits flushed as Postgres does by default) on the
 * products the load names, until stopped.
 */
export async function startWriteLoad({ url, client, load, read }: {
  url: string;
  client: pg.Client;
  load: WriteLoad;
  /** The brands the cases read, the big one first. */
  read: readonly BrandRef[];
}): Promise<RunningWriteLoad> {
  const ids = await numberProducts({ client, table: IDS_TABLE, select: productsOf({ load, read }) });
  const pgbench: BackgroundPgbench = await startPgbench({
    url, script: touchProductScript(IDS_TABLE), clients: 2, rate: load.rate, variables: { ids }, settings: { application_name: WRITE_LOAD_APPLICATION },
  });
  return {
    async stop() {
      try {
        const { transactions, seconds } = await pgbench.stop();
        return { writesPerSecond: seconds > 0 ? transactions / seconds : 0 };
      } finally {
        await client.query(`drop table if exists ${IDS_TABLE}`);
      }
    },
  };
}
