import type pg from 'pg';
import { SYNC_TRIGGERS } from '../../src/engine/compile/plan-sync.ts';
import { dropIndexes, presentIndexes, runMigrationUp, tableIndexes } from './list-question-indexes.ts';
import { runPgbench, type PgbenchResult } from './pgbench.ts';
import { numberProducts, touchProductScript } from './product-writes.ts';
import { waitUntilIdle } from './wait-idle.ts';

/** Single-row updates per second, with the feed's triggers and without them. */
export interface WriterCostResult {
  readonly clients: number;
  readonly withTriggers: PgbenchResult;
  readonly withoutTriggers: PgbenchResult;
  /** The share of the writers' throughput the triggers take: 1 - with / without (the target: at most 0.15). */
  readonly cost: number;
}

/** Single-row updates per second on products, with the list questions' products indexes and without them. */
export interface IndexWriterCostResult {
  readonly clients: number;
  /** The indexes dropped and built again (the migration's on products). */
  readonly indexes: readonly string[];
  readonly withIndexes: PgbenchResult;
  readonly withoutIndexes: PgbenchResult;
  /** The share of the writers' throughput the indexes take: 1 - with / without (the goal: at most 0.15). */
  readonly cost: number;
  /** Seconds the migration's `up` took to build them again between the halves. */
  readonly rebuildSeconds: readonly number[];
}

/** Writer sessions: two cores, so two keep Postgres busy without queueing on each other. */
const CLIENTS = 2;
/** Numbers the products, so pgbench (which draws integers) can pick one at random. */
const IDS_TABLE = 'bench_writer_ids';

/**
 * Synchronous commit off: each commit then waits for no disk flush, so the
 * writers are bound by CPU and what is weighed (the triggers, the indexes)
 * takes the largest share it can; with flushes (the default) it is smaller
 * still.
 */
const SETTINGS = { synchronous_commit: 'off' };

const sum = (runs: readonly PgbenchResult[]): PgbenchResult => {
  const transactions = runs.reduce((total, run) => total + run.transactions, 0);
  const seconds = runs.reduce((total, run) => total + run.transactions / run.tps, 0);
  return { transactions, tps: transactions / seconds, latencyMs: runs.reduce((total, run) => total + run.latencyMs * run.transactions, 0) / transactions };
};

/** On is as the migrations leave them: firing in every session (`enable always`), replica sessions included. */
async function setTriggers({ client, enabled }: { client: pg.Client; enabled: boolean }): Promise<void> {
  for (const trigger of Object.values(SYNC_TRIGGERS)) {
    await client.query(`alter table products ${enabled ? 'enable always' : 'disable'} trigger "${trigger}"`);
  }
}

/**
 * pgbench updating random products (among all of them: the whole table is
 * written), with something on and then off, in mirrored halves (on, off,
 * off, on), `set` called before each run to put it as the run needs it (it
 * may be called with the state it is already in). The numbering table is
 * dropped at the end; putting things back is the caller's.
 */
async function measureOnAndOff({ url, client, durationSeconds, set }: {
  url: string;
  client: pg.Client;
  durationSeconds: number;
  set(on: boolean): Promise<void>;
}): Promise<Record<'on' | 'off', PgbenchResult>> {
  const ids = await numberProducts({ client, table: IDS_TABLE, select: { sql: 'select id from products', values: [] } });
  const firstHalf = Math.max(1, Math.ceil(durationSeconds / 2));
  const secondHalf = durationSeconds - firstHalf;
  const runs: Record<'on' | 'off', PgbenchResult[]> = { on: [], off: [] };
  try {
    const plan: [state: 'on' | 'off', seconds: number][] = [['on', firstHalf], ['off', firstHalf]];
    if (secondHalf > 0) plan.push(['off', secondHalf], ['on', secondHalf]);
    for (const [state, seconds] of plan) {
      await set(state === 'on');
      await waitUntilIdle({ client });
      runs[state].push(await runPgbench({
        url, script: touchProductScript(IDS_TABLE), seconds, clients: CLIENTS, variables: { ids }, settings: SETTINGS,
      }));
    }
  } finally {
    await client.query(`drop table if exists ${IDS_TABLE}`);
  }
  return { on: sum(runs.on), off: sum(runs.off) };
}

/**
 * Measures the triggers' cost to writers in the same run and on the same
 * table: pgbench updates random products with the triggers on and then off,
 * in mirrored halves (on, off, off, on). The triggers are always turned back
 * on, and the numbering table dropped, at the end.
 */
export async function measureWriterCost({ url, client, durationSeconds }: { url: string; client: pg.Client; durationSeconds: number }): Promise<WriterCostResult> {
  try {
    const { on, off } = await measureOnAndOff({ url, client, durationSeconds, set: (enabled) => setTriggers({ client, enabled }) });
    return { clients: CLIENTS, withTriggers: on, withoutTriggers: off, cost: 1 - on.tps / off.tps };
  } finally {
    await setTriggers({ client, enabled: true });
  }
}

/**
 * Measures what the list questions' indexes on products cost writers, in
 * the same run and on the same table, with everything else as in production
 * (the feed's triggers on): pgbench updates random products (`updated_at`,
 * which is indexed, so every update adds an entry to every index of the
 * table) with the migration's products indexes present, then dropped, in
 * mirrored halves (present, dropped, dropped, present). They are dropped
 * with a plain `drop index` and built again by the migration's `up`
 * (concurrently, as in production), also at the end whatever happens.
 */
export async function measureIndexWriterCost({ url, client, durationSeconds }: { url: string; client: pg.Client; durationSeconds: number }): Promise<IndexWriterCostResult> {
  const indexes = await tableIndexes('products');
  const rebuildSeconds: number[] = [];
  try {
    const set = async (present: boolean): Promise<void> => {
      const there = await presentIndexes({ client, indexes });
      if (present && there.length < indexes.length) rebuildSeconds.push(await runMigrationUp(url));
      if (!present && there.length > 0) await dropIndexes({ client, indexes });
    };
    const { on, off } = await measureOnAndOff({ url, client, durationSeconds, set });
    return { clients: CLIENTS, indexes: indexes.map((index) => index.name), withIndexes: on, withoutIndexes: off, cost: 1 - on.tps / off.tps, rebuildSeconds };
  } finally {
    if ((await presentIndexes({ client, indexes })).length < indexes.length) await runMigrationUp(url);
  }
}
