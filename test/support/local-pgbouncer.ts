/**
 * Debian's PgBouncer in transaction mode, in front of a Postgres server, for
 * the tests that check the service through a pooler (CONTRACT.md §5,
 * DATABASE_POOLER). Every database of the server is served (`* = ...`), with
 * trust authentication and `postgres` as the admin user, so `show stats`
 * tells how many queries went through. PgBouncer refuses to run as root: it
 * runs as the `postgres` OS user, from a folder of its own.
 *
 * Also a command, for `.ci/run`: `tsx test/support/local-pgbouncer.ts
 * <port, 0 for a free one> <postgres url>` starts one and prints a URL
 * through it and the command's pid; PgBouncer runs until that pid gets
 * SIGTERM or SIGINT, and its folder goes with it.
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
import { runUntilStopped } from './until-stopped.ts';

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

/** Tries to start PgBouncer this many times, each on another free port when none was given. */
const STARTS = 3;

/**
 * Starts PgBouncer in front of the server of `postgresUrl`, on `port` (or a
 * free one), and waits until it answers. A start that fails says why, from
 * PgBouncer's own log (a daemon writes nothing to its stderr); without a
 * given port it is tried again on another (a free port may be taken between
 * the look and the bind on a busy machine).
 */
export async function startPgBouncer({ port, postgresUrl }: { port?: number; postgresUrl: string }): Promise<LocalPgBouncer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce({ port: port ?? (await freePort()), postgresUrl });
    } catch (error) {
      if (port !== undefined || attempt >= STARTS) throw error;
    }
  }
}

/** Ends a start that failed (its daemon too, if it forked one) and says why, with the end of PgBouncer's own log. */
async function failedStart({ dir, port, why }: { dir: string; port: number; why: string }): Promise<never> {
  const log = await readFile(join(dir, 'pgbouncer.log'), 'utf8').catch(() => '(no log)');
  const pid = Number(await readFile(join(dir, 'pgbouncer.pid'), 'utf8').catch(() => ''));
  if (pid > 0 && isProcessRunning(pid)) process.kill(pid, 'SIGINT');
  await rm(dir, { recursive: true, force: true });
  throw new Error(`pgbouncer did not start on port ${port}: ${why.trim()}; its log: ${log.trim().split('\n').slice(-5).join(' | ')}`);
}

async function startOnce({ port, postgresUrl }: { port: number; postgresUrl: string }): Promise<LocalPgBouncer> {
  const target = new URL(postgresUrl);
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbouncer-'));
  await writeFile(join(dir, 'pgbouncer.ini'), config({ dir, port, target }));
  await writeFile(join(dir, 'users.txt'), '"postgres" ""\n');
  for (const path of [dir, join(dir, 'pgbouncer.ini'), join(dir, 'users.txt')]) await ownedByPostgres(path);
  const started = await new Promise<string | null>((resolve) => {
    execFile(PGBOUNCER, ['-d', '-u', 'postgres', join(dir, 'pgbouncer.ini')], { timeout: 30_000 }, (error, _out, stderr) => resolve(error ? `${error.message} ${stderr}` : null));
  });
  if (started !== null) return failedStart({ dir, port, why: started });
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
  const answers = await waitFor(async () => (await adminQuery('show version').then(() => true, () => false)), { timeoutMs: 10_000, intervalMs: 50, what: 'pgbouncer to answer' })
    .then(() => true, () => false);
  if (!answers) return failedStart({ dir, port, why: 'no answer within 10 s' });
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
  const bouncer = await startPgBouncer({ ...(Number(port) > 0 ? { port: Number(port) } : {}), postgresUrl });
  // This command stays until it is told to stop, then stops PgBouncer and deletes its folder (killing PgBouncer
  // alone left the folder behind).
  runUntilStopped(() => bouncer.stop());
  process.stdout.write(`${bouncer.url(new URL(postgresUrl).pathname.slice(1))} ${process.pid}\n`);
}
