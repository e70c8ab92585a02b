import type pg from 'pg';
import { SYNC_TRIGGERS } from '../../src/engine/compile/plan-sync.ts';
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

/** Writer sessions: two cores, so two keep Postgres busy without queueing on each other. */
const CLIENTS = 2;
/** Numbers the products, so pgbench (which draws integers) can pick one at random. */
const IDS_TABLE = 'bench_writer_ids';

/**
 * Synchronous commit off: each commit then waits for no disk flush, so the
 * writers are bound by CPU and the triggers' share is the largest it can be;
 * with flushes (the default) it is smaller still.
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
 * Measures the triggers' cost to writers in the same run and on the same
 * table: pgbench updates random products with the triggers on and then off,
 * in mirrored halves (on, off, off, on). The triggers are always turned back
 * on, and the numbering table dropped, at the end.
 */
export async function measureWriterCost({ url, client, durationSeconds }: { url: string; client: pg.Client; durationSeconds: number }): Promise<WriterCostResult> {
  // Among all the products: the whole table is written.
  const ids = await numberProducts({ client, table: IDS_TABLE, select: { sql: 'select id from products', values: [] } });
  const firstHalf = Math.max(1, Math.ceil(durationSeconds / 2));
  const secondHalf = durationSeconds - firstHalf;
  const runs: Record<'on' | 'off', PgbenchResult[]> = { on: [], off: [] };
  try {
    const plan: [triggers: 'on' | 'off', seconds: number][] = [['on', firstHalf], ['off', firstHalf]];
    if (secondHalf > 0) plan.push(['off', secondHalf], ['on', secondHalf]);
    for (const [triggers, seconds] of plan) {
      await setTriggers({ client, enabled: triggers === 'on' });
      await waitUntilIdle({ client });
      runs[triggers].push(await runPgbench({
        url, script: touchProductScript(IDS_TABLE), seconds, clients: CLIENTS, variables: { ids }, settings: SETTINGS,
      }));
    }
  } finally {
    await setTriggers({ client, enabled: true });
    await client.query(`drop table if exists ${IDS_TABLE}`);
  }
  const withTriggers = sum(runs.on);
  const withoutTriggers = sum(runs.off);
  return { clients: CLIENTS, withTriggers, withoutTriggers, cost: 1 - withTriggers.tps / withoutTriggers.tps };
}
