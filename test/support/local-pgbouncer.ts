/**
 * Debian's PgBouncer in transaction mode, in front of a Postgres server, for
 * the tests that check the service through a pooler (CONTRACT.md §5,
 * DATABASE_POOLER). Every database of the server is served (`* = ...`), with
 * trust authentication and `postgres` as the admin user, so `show stats`
 * tells how many queries went through. PgBouncer refuses to run as root: it
 * runs as the `postgres` OS user, from a folder of its own.
 *
 * Also a command, for `.ci/run`: `tsx test/support/local-pgbouncer.ts
 * <port, 0 for a free one> <postgres url>` starts one in the background and
 * prints a URL through it and its pid; it runs until that pid is killed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { isProcessRunning } from '../../src/system/is-process-running.ts';
import { freePort } from './free-port.ts';
import { waitFor } from './wait-for.ts';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** A running PgBouncer: URLs through it, its counters, and its end. */
export interface LocalPgBouncer {
  readonly port: number;
  /** A URL to `database` through the pooler. */
  url(database: string): string;
  /** The pooler's process. */
  readonly pid: number;
  /** Queries PgBouncer has passed to `database` so far (`show stats`). */
  queries(database: string): Promise<number>;
  stop(): Promise<void>;
}

function config({ dir, port, target }: { dir: string; port: number; target: URL }): string {
  return [
    '[databases]',
    `* = host=${target.hostname} port=${target.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'admin_users = postgres',
    'pool_mode = transaction',
    'max_client_conn = 1000',
    'default_pool_size = 20',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    '',
  ].join('\n');
}

function ownedByPostgres(path: string): Promise<void> {
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return chown(path, uid, gid);
}

/** Starts PgBouncer on `port` in front of the server of `postgresUrl`, and waits until it answers. */
export async function startPgBouncer({ port, postgresUrl }: { port: number; postgresUrl: string }): Promise<LocalPgBouncer> {
  const target = new URL(postgresUrl);
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbouncer-'));
  await writeFile(join(dir, 'pgbouncer.ini'), config({ dir, port, target }));
  await writeFile(join(dir, 'users.txt'), '"postgres" ""\n');
  for (const path of [dir, join(dir, 'pgbouncer.ini'), join(dir, 'users.txt')]) await ownedByPostgres(path);
  await new Promise<void>((resolve, reject) => {
    execFile(PGBOUNCER, ['-d', '-u', 'postgres', join(dir, 'pgbouncer.ini')], { timeout: 10_000 }, (error, _out, stderr) => (error ? reject(new Error(`pgbouncer did not start: ${stderr}`)) : resolve()));
  });
  const admin = `postgres://postgres@127.0.0.1:${port}/pgbouncer`;
  const url = (database: string): string => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const adminQuery = async (text: string): Promise<Record<string, unknown>[]> => {
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      // The admin console speaks the simple query protocol only.
      return (await client.query({ text, queryMode: 'simple' } as pg.QueryConfig)).rows;
    } finally {
      await client.end();
    }
  };
  await waitFor(async () => (await adminQuery('show version').then(() => true, () => false)), { timeoutMs: 10_000, intervalMs: 50, what: 'pgbouncer to answer' });
  const pid = Number((await readFile(join(dir, 'pgbouncer.pid'), 'utf8')).trim());
  return {
    port,
    pid,
    url,
    async queries(database) {
      const row = (await adminQuery('show stats')).find((stats) => stats.database === database);
      return Number(row?.total_query_count ?? 0);
    },
    async stop() {
      try {
        process.kill(pid, 'SIGINT');
        await waitFor(async () => !isProcessRunning(pid), { timeoutMs: 10_000, intervalMs: 20, what: 'pgbouncer to stop' });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ESRCH') throw error;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [port, postgresUrl] = process.argv.slice(2);
  if (!port || !postgresUrl) {
    process.stderr.write('usage: tsx test/support/local-pgbouncer.ts <port> <postgres url>\n');
    process.exit(2);
  }
  const bouncer = await startPgBouncer({ port: Number(port) || (await freePort()), postgresUrl });
  process.stdout.write(`${bouncer.url(new URL(postgresUrl).pathname.slice(1))} ${bouncer.pid}\n`);
}
