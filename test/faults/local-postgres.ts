/**
 * A throwaway Postgres cluster of the test's own: made by `initdb` (once per
 * process, then copied) in a fresh temporary folder owned by the `postgres` OS
 * user (initdb refuses root), trust authentication, a free port on 127.0.0.1
 * and its Unix socket in that folder, so stopping it never touches the
 * machine's Postgres (5432). Making and starting one takes a second or more:
 * make one per test file and reuse it. A cluster left by a killed run is
 * stopped and deleted by the next run.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

/** The folder prefix; the mocha process's pid follows it, so a later run can clean up after a killed one. */
const PREFIX = 'bcat-faults-pg-';
/** The machine's own Postgres: never ours. */
const SHARED_PORT = 5432;
/** Every pg_ctl and initdb call gets this long before it counts as hung. */
const COMMAND_TIMEOUT_MS = 30_000;

export type StopMode = 'fast' | 'immediate';

/** The directory of the newest Postgres binaries: `/usr/lib/postgresql/<version>/bin`. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'pg_ctl')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** The numeric uid and gid of the `postgres` OS user, or null when there is none. */
function postgresUser(): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Whether this machine can run a cluster of our own: the binaries, the user, and root to switch to it. */
export function canRunLocalPostgres(): boolean {
  return postgresBinDir() !== null && postgresUser() !== null && process.getuid?.() === 0 && existsSync('/usr/sbin/runuser');
}

/** Runs a Postgres binary as the `postgres` user, bounded in time; rejects with its output on failure. */
function runAsPostgres(bin: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('runuser', ['-u', 'postgres', '--', bin, ...args], { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${bin} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/** Runs a command (as root), bounded in time. */
function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: COMMAND_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve();
    });
  });
}

let template: Promise<string> | null = null;
let templateDir: string | null = null;

/**
 * One initdb per process, in a folder of its own, with the settings every
 * cluster shares: trust authentication, 127.0.0.1 only, no fsync, small
 * buffers. Returns its data folder; clusters copy it.
 */
function initdbTemplate(binDir: string, user: { uid: number; gid: number }): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-template-`));
    templateDir = dir;
    installExitHook();
    await chown(dir, user.uid, user.gid);
    const dataDir = join(dir, 'data');
    await runAsPostgres(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    await appendFile(join(dataDir, 'postgresql.conf'), [
      '',
      '# throwaway clusters of test/faults',
      `listen_addresses = '127.0.0.1'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'shared_buffers = 16MB',
      'max_connections = 40',
      '',
    ].join('\n'));
    return dataDir;
  })();
  template.catch(() => {
    template = null;
  });
  return template;
}

/** Stops a data folder's postmaster at once, synchronously (process exit, or a cluster left by a killed run). */
function stopNow(binDir: string, dataDir: string): void {
  if (!existsSync(join(dataDir, 'postmaster.pid'))) return;
  spawnSync('runuser', ['-u', 'postgres', '--', join(binDir, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', '-w', '-t', '10', 'stop'], { stdio: 'ignore', timeout: 15_000 });
}

/** Pids whose parent is `parent`, read from /proc. */
export function childrenOf(parent: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) found.push(Number(name));
    } catch {
      // the process ended while we read
    }
  }
  return found;
}

/** Clusters of this process that are still running: stopped when the process exits, whatever happened. */
const live = new Set<LocalPostgres>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const cluster of live) cluster.destroySync();
    if (templateDir) rmSync(templateDir, { recursive: true, force: true });
  });
}

/** Stops and deletes the clusters of earlier runs that were killed before their after hooks ran. */
function removeAbandoned(binDir: string): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1] ?? 0);
    if (pid <= 0 || pid === process.pid || isProcessRunning(pid)) continue;
    const dir = join(tmpdir(), name);
    stopNow(binDir, join(dir, 'data'));
    rmSync(dir, { recursive: true, force: true });
  }
}

export class LocalPostgres {
  private running = false;
  private destroyed = false;
  /** Processes stopped by `freeze`, to continue in `thaw`. */
  private frozen: number[] = [];

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly binDir: string,
  ) {}

  /** The data folder (owned by `postgres`). */
  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Over TCP on 127.0.0.1, as a server in production would connect. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Makes a new cluster on a free port; it is not started yet. The cluster is
   * a copy of one `initdb` run per process (initdb takes seconds on a busy
   * machine, a copy a fraction of that), or of the stopped cluster `from`
   * with everything in it.
   */
  static async create({ from }: { from?: LocalPostgres } = {}): Promise<LocalPostgres> {
    // Fail loudly rather than skip: these tests are the proof that faults are survived.
    if (!canRunLocalPostgres()) throw new Error('fault tests need the Postgres server binaries, the postgres user, runuser and root');
    if (from && (from.isRunning || from.destroyed)) throw new Error('a cluster is copied while it is stopped');
    const binDir = postgresBinDir();
    const user = postgresUser();
    if (!binDir || !user) throw new Error('no Postgres binaries or no postgres user on this machine');
    removeAbandoned(binDir);
    const initialised = from ? from.dataDir : await initdbTemplate(binDir, user);
    const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
    await chown(dir, user.uid, user.gid);
    const port = await freePort();
    if (port === SHARED_PORT) throw new Error('refusing the shared Postgres port 5432');
    const cluster = new LocalPostgres(dir, port, binDir);
    installExitHook();
    live.add(cluster);
    try {
      // cp -a as root keeps the postgres owner and the 0700 mode Postgres insists on.
      await run('cp', ['-a', initialised, cluster.dataDir]);
      // Everything in postgresql.conf, so a restart comes back the same (same port, same socket folder);
      // the last setting wins over those of a copied cluster.
      await appendFile(join(cluster.dataDir, 'postgresql.conf'), [
        '',
        '# this cluster (test/faults)',
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        '',
      ].join('\n'));
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /**
   * Makes a streaming replica of the running cluster `primary` on a free port
   * of its own; it is not started yet. `pg_basebackup -R` (as `postgres`, over
   * TCP: initdb's trust pg_hba already admits replication from 127.0.0.1)
   * copies the primary and writes `standby.signal` and `primary_conninfo`;
   * the copied postgresql.conf names the primary's port and socket folder, so
   * this cluster's are appended (the last setting wins). Once started it is a
   * hot standby: it serves reads and follows the primary's WAL.
   */
  static async replicaOf(primary: LocalPostgres): Promise<LocalPostgres> {
    if (!primary.isRunning) throw new Error('a replica is made of a running cluster');
    const user = postgresUser();
    if (!user) throw new Error('no postgres user on this machine');
    const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
    await chown(dir, user.uid, user.gid);
    const port = await freePort();
    if (port === SHARED_PORT) throw new Error('refusing the shared Postgres port 5432');
    const replica = new LocalPostgres(dir, port, primary.binDir);
    installExitHook();
    live.add(replica);
    try {
      // -c fast: checkpoint at once rather than spread over minutes; -X stream: the WAL written meanwhile comes along.
      await runAsPostgres(join(primary.binDir, 'pg_basebackup'), [
        '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', replica.dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync',
      ]);
      await appendFile(join(replica.dataDir, 'postgresql.conf'), [
        '',
        '# this cluster, a streaming replica (test/faults)',
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        'hot_standby = on',
        '',
      ].join('\n'));
    } catch (error) {
      await replica.destroy();
      throw error;
    }
    return replica;
  }

  async start(): Promise<void> {
    if (this.destroyed) throw new Error('this cluster was destroyed');
    if (this.running) return;
    await runAsPostgres(join(this.binDir, 'pg_ctl'), ['-D', this.dataDir, '-l', join(this.dir, 'postgres.log'), '-w', '-t', '20', 'start']);
    this.running = true;
  }

  /** `fast`: sessions are terminated and the server shuts down cleanly; `immediate`: every server process is killed (crash recovery on the next start). */
  async stop({ mode = 'fast' }: { mode?: StopMode } = {}): Promise<void> {
    if (!this.running) return;
    this.thaw();
    await runAsPostgres(join(this.binDir, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', '-t', '20', 'stop']);
    this.running = false;
  }

  /**
   * Promotes a running streaming replica to a primary (`pg_ctl promote -w`:
   * returns once it accepts writes). It follows no primary any more; its
   * transaction ids go on from the old primary's, so `xid8` values and sync
   * tokens made there stay comparable.
   */
  async promote(): Promise<void> {
    if (!this.running) throw new Error('a replica is promoted while it runs');
    await runAsPostgres(join(this.binDir, 'pg_ctl'), ['-D', this.dataDir, '-w', '-t', '20', 'promote']);
  }

  async restart({ mode = 'fast' }: { mode?: StopMode } = {}): Promise<void> {
    await this.stop({ mode });
    await this.start();
  }

  /**
   * Freezes the running cluster (SIGSTOP to its postmaster and every child of
   * it): sockets stay open and connections are still accepted by the kernel,
   * but nothing answers, as behind a network partition.
   */
  freeze(): void {
    if (!this.running || this.frozen.length > 0) return;
    const postmaster = this.postmasterPid();
    if (postmaster === null) throw new Error('the cluster has no postmaster.pid');
    const pids = [postmaster, ...childrenOf(postmaster)];
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    this.frozen = pids;
  }

  /** Lets a frozen cluster run again. */
  thaw(): void {
    for (const pid of this.frozen) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone already
      }
    }
    this.frozen = [];
  }

  private postmasterPid(): number | null {
    const file = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return pid > 0 ? pid : null;
  }

  /** The server's log, for a failing test's message. */
  async log(): Promise<string> {
    return readFile(join(this.dir, 'postgres.log'), 'utf8').catch(() => '');
  }

  /** Stops the cluster (at once) and deletes its folder. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.thaw();
    try {
      if (existsSync(join(this.dataDir, 'postmaster.pid'))) {
        await runAsPostgres(join(this.binDir, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop']).catch(() => undefined);
      }
    } finally {
      this.running = false;
      this.destroyed = true;
      live.delete(this);
      await rm(this.dir, { recursive: true, force: true });
    }
  }

  /** What `destroy` does, synchronously, for the process's exit hook. */
  destroySync(): void {
    if (this.destroyed) return;
    this.thaw();
    stopNow(this.binDir, this.dataDir);
    this.running = false;
    this.destroyed = true;
    live.delete(this);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
