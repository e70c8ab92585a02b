import type pg from 'pg';
import type { BrandRef, CaseName } from './cases.ts';
import { startPgbench, type BackgroundPgbench } from './pgbench.ts';
import { numberProducts, touchProductScript } from './product-writes.ts';

/**
 * Write loads the floor's cases are measured under again (issue 17): the
 * brands' systems write all day, and a server whose speed holds only on a
 * database nobody writes is not measured where it is used.
 */
export const WRITE_LOAD_NAMES = ['writes-other-brands', 'writes-own-brand'] as const;
export type WriteLoadName = (typeof WRITE_LOAD_NAMES)[number];

export interface WriteLoad {
  readonly title: string;
  /** Committed single-row updates per second. */
  readonly rate: number;
  /** Whose products are written: every brand but those the cases read, or just those. */
  readonly brands: 'others' | 'read';
}

export const WRITE_LOADS: Readonly<Record<WriteLoadName, WriteLoad>> = Object.freeze({
  'writes-other-brands': { title: '200 writes/s spread over the other brands', rate: 200, brands: 'others' },
  'writes-own-brand': { title: '20 writes/s to the brands being read', rate: 20, brands: 'read' },
});

/** The cases measured under each load, on the server and the floor alike. */
export const LOADED_CASES: readonly CaseName[] = Object.freeze(['get-by-id', 'first-page-small', 'first-page-big-filter']);
/** Connections each loaded case runs with: a sync client's few, the usual 32, and many. */
export const LOADED_CONNECTIONS: readonly number[] = Object.freeze([2, 32, 256]);

/** The write load's sessions name themselves so: a run waiting for a quiet database does not wait for them. */
export const WRITE_LOAD_APPLICATION = 'bench-write-load';

/** Products a load picks from, numbered for pgbench. */
const IDS_TABLE = 'bench_write_load_ids';
/** Of each brand the cases read, the products a load writes: enough that a write seldom meets another on one row. */
const READ_BRAND_SAMPLE = 2_000;

/** The products the load writes: every other brand's, or a sample of each brand read (the same number from each). */
function productsOf({ load, read }: { load: WriteLoad; read: readonly BrandRef[] }): { sql: string; values: unknown[] } {
  const brands = read.map((brand) => brand.id);
  return load.brands === 'others'
    ? { sql: 'select id from products where brand_id <> all($1::uuid[])', values: [brands] }
    : {
        sql: `select id from (select id, row_number() over (partition by brand_id order by md5(id::text)) as k
                from products where brand_id = any($1::uuid[])) s where k <= $2`,
        values: [brands, READ_BRAND_SAMPLE],
      };
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
