/**
 * Logical replication between two databases of one throwaway cluster
 * (local-postgres.ts makes the cluster): `wal_level = logical`, a
 * publication of some tables on one database and a subscription to it on
 * the other, and a way to wait until the subscriber has applied everything
 * the publisher had committed. Separate from local-postgres.ts so the two
 * grow apart without clashing.
 *
 * STACK-NOTES: a subscription to a publication of the same cluster hangs on
 * `CREATE SUBSCRIPTION` unless its slot is made first and the subscription
 * made with `create_slot = false`.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { waitFor } from '../support/wait-for.ts';
import type { LocalPostgres } from './local-postgres.ts';

/** The table, on both sides, the publisher writes a counter to and the subscriber is waited on for. */
const MARKER_TABLE = 'bcat_apply_marker';

/**
 * Gives a stopped cluster what logical replication needs (a restart's worth
 * of settings: `wal_level = logical`, slots, senders, apply workers); start
 * it afterwards.
 */
export async function enableLogicalReplication(cluster: LocalPostgres): Promise<void> {
  if (cluster.isRunning) throw new Error('logical replication is enabled on a stopped cluster (wal_level needs a restart)');
  await appendFile(join(cluster.dataDir, 'postgresql.conf'), [
    '',
    '# logical replication (test/faults/logical-cluster.ts)',
    'wal_level = logical',
    'max_replication_slots = 8',
    'max_wal_senders = 8',
    'max_logical_replication_workers = 4',
    'max_sync_workers_per_subscription = 2',
    '',
  ].join('\n'));
}

/** The URL of another database of the cluster. */
export function databaseUrl(cluster: LocalPostgres, database: string): string {
  return cluster.url.replace(/\/postgres$/, `/${database}`);
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Makes a database as a copy of another (`template`): a migrated one is copied in a moment, without migrating again. No session may be open on the template. */
export async function copyDatabase({ cluster, from, to }: { cluster: LocalPostgres; from: string; to: string }): Promise<string> {
  await withClient(cluster.url, (client) => client.query(`create database "${to}" template "${from}"`));
  return databaseUrl(cluster, to);
}

/** A subscription, and how to wait for it. */
export interface LogicalSubscription {
  /** Resolves once the subscriber has applied every transaction the publisher had committed when it was called. */
  caughtUp(options?: { timeoutMs?: number }): Promise<void>;
  /** Drops the subscription (and its slot) and closes the sessions. */
  close(): Promise<void>;
}

/**
 * Publishes `tables` of the publisher's database (every column but those in
 * `without`) and subscribes the subscriber's database to them, without
 * copying the rows already there (both sides are expected to start equal).
 */
export async function subscribe({ cluster, publisher, subscriber, tables, without = [], name = 'bcat_feed' }: {
  cluster: LocalPostgres;
  /** Database names of the cluster. */
  publisher: string;
  subscriber: string;
  tables: readonly string[];
  /** Columns left out of the publication (the subscriber's own, such as the feed's `sync_xid`). */
  without?: readonly string[];
  name?: string;
}): Promise<LogicalSubscription> {
  const publisherUrl = databaseUrl(cluster, publisher);
  const subscriberUrl = databaseUrl(cluster, subscriber);
  for (const url of [publisherUrl, subscriberUrl]) {
    await withClient(url, (client) => client.query(`create table if not exists ${MARKER_TABLE} (id int primary key, n bigint not null); insert into ${MARKER_TABLE} values (1, 0) on conflict do nothing`));
  }
  await withClient(publisherUrl, async (client) => {
    const { rows } = await client.query<{ table: string; columns: string }>(
      `select table_name as "table", string_agg(quote_ident(column_name), ', ' order by ordinal_position) as "columns"
         from information_schema.columns where table_schema = current_schema() and table_name = any($1) and not (column_name = any($2)) group by table_name`,
      [[...tables, MARKER_TABLE], [...without]],
    );
    await client.query(`create publication ${name} for table ${rows.map((row) => `"${row.table}" (${row.columns})`).join(', ')}`);
    await client.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [name]);
  });
  const connection = `host=127.0.0.1 port=${cluster.port} dbname=${publisher} user=postgres`;
  await withClient(subscriberUrl, (client) => client.query(
    `create subscription ${name} connection '${connection}' publication ${name} with (create_slot = false, slot_name = '${name}', copy_data = false)`,
  ));
  const writer = new pg.Client({ connectionString: publisherUrl });
  const watcher = new pg.Client({ connectionString: subscriberUrl });
  await Promise.all([writer.connect(), watcher.connect()]);
  return {
    async caughtUp({ timeoutMs = 20_000 } = {}) {
      // Committed after everything the publisher had committed: applied in commit order, it comes last.
      const { rows } = await writer.query(`update ${MARKER_TABLE} set n = n + 1 where id = 1 returning n::text`);
      const target = BigInt(rows[0].n as string);
      await waitFor(async () => BigInt((await watcher.query(`select n::text from ${MARKER_TABLE} where id = 1`)).rows[0].n as string) >= target, {
        timeoutMs, intervalMs: 20, what: 'the subscriber to apply the publisher\'s commits',
      });
    },
    async close() {
      // Detached from its slot first: the drop then does not connect to the publisher (the cluster goes anyway).
      for (const sql of [`alter subscription ${name} disable`, `alter subscription ${name} set (slot_name = none)`, `drop subscription ${name}`]) {
        await watcher.query(sql).catch(() => undefined);
      }
      await Promise.all([writer.end(), watcher.end()]);
    },
  };
}
