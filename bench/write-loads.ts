import type pg from 'pg';
import type { BrandRef, CaseName } from './cases.ts';
import { startPgbench, type BackgroundPgbench } from './pgbench.ts';

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

/** One writer's transaction: touch one product, picked at random among the load's. */
const SCRIPT = `\\set n random(1, :ids)
update products set updated_at = now() where id = (select id from ${IDS_TABLE} where n = :n);
`;

/** The products the load writes, numbered from 1: every other brand's, or a sample of each brand read (the same number from each). */
async function numberProducts({ client, load, read }: { client: pg.Client; load: WriteLoad; read: readonly BrandRef[] }): Promise<number> {
  await client.query(`drop table if exists ${IDS_TABLE}`);
  const brands = read.map((brand) => brand.id);
  const select = load.brands === 'others'
    ? { sql: 'select id from products where brand_id <> all($1::uuid[])', values: [brands] }
    : {
        sql: `select id from (select id, row_number() over (partition by brand_id order by md5(id::text)) as k
                from products where brand_id = any($1::uuid[])) s where k <= $2`,
        values: [brands, READ_BRAND_SAMPLE],
      };
  await client.query(`create unlogged table ${IDS_TABLE} as select (row_number() over ())::int as n, id from (${select.sql}) p`, select.values);
  await client.query(`alter table ${IDS_TABLE} add primary key (n)`);
  await client.query(`analyze ${IDS_TABLE}`);
  return ((await client.query(`select count(*)::int as "n" from ${IDS_TABLE}`)).rows[0] as { n: number }).n;
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
  const ids = await numberProducts({ client, load, read });
  const pgbench: BackgroundPgbench = await startPgbench({
    url, script: SCRIPT, clients: 2, rate: load.rate, variables: { ids }, settings: { application_name: WRITE_LOAD_APPLICATION },
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
