/**
 * What the multi-node test needs beyond test/faults: the Prometheus text of
 * `/metrics` read into numbers, control of a streaming replica's WAL replay
 * (pause it so the replica lags the primary on purpose, resume it, wait for
 * it to catch up), and `npm run start:cluster`'s process with its workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { timedGet } from '../faults/fault-support.ts';
import { REPO_ROOT } from '../support/server-process.ts';
import { childrenOf } from '../faults/local-postgres.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import { isProcessRunning } from '../../src/system/is-process-running.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

/** One scrape of `/metrics`: samples by name and labels. */
export interface MetricsScrape {
  /** The sample's value, or 0 when it has none (a labelled counter appears only once counted). */
  value(name: string, labels?: Readonly<Record<string, string>>): number;
  readonly text: string;
}

/** `name{a="x",b="y"} 12` lines; labels compared as a set. */
export function parseMetrics(text: string): MetricsScrape {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return {
    text,
    value(name, labels = {}) {
      const wanted = Object.entries(labels);
      const found = samples.find((sample) => sample.name === name
        && Object.keys(sample.labels).length === wanted.length
        && wanted.every(([label, value]) => sample.labels[label] === value));
      return found?.value ?? 0;
    },
  };
}

export async function scrapeMetrics(origin: string): Promise<MetricsScrape> {
  const response = await timedGet(`${origin}/metrics`, { timeoutMs: 10_000 });
  if (response.status !== 200) throw new Error(`GET ${origin}/metrics answered ${response.status}`);
  return parseMetrics(String(response.body));
}

/** Where one instance's reads ran, from its `/metrics`. */
export interface ReadCounts {
  readonly primary: number;
  readonly replica: number;
  /** `bcat_db_read_target_available{target="replica-1"}`: 1 or 0. */
  readonly replicaAvailable: number;
}

export async function readCounts(origin: string): Promise<ReadCounts> {
  const scrape = await scrapeMetrics(origin);
  return {
    primary: scrape.value('bcat_db_reads_total', { target: 'primary' }),
    replica: scrape.value('bcat_db_reads_total', { target: 'replica-1' }),
    replicaAvailable: scrape.value('bcat_db_read_target_available', { target: 'replica-1' }),
  };
}

/**
 * A primary and its streaming replica, seen from sessions of the test's own:
 * replay on the replica can be paused (it then lags the primary, so an answer
 * tells which of the two it came from) and resumed, and the replica waited
 * for until it has replayed everything the primary has written.
 */
export interface Replication {
  /** Pauses WAL replay on the replica and waits until it has stopped applying. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed the primary's WAL as of now. */
  caughtUp(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function watchReplication({ primaryUrl, replicaUrl }: { primaryUrl: string; replicaUrl: string }): Replication {
  const open = (url: string): pg.Pool => {
    const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'bcat-cluster-observer', connectionTimeoutMillis: 5000 });
    pool.on('error', () => undefined);
    return pool;
  };
  const primary = open(primaryUrl);
  const replica = open(replicaUrl);
  return {
    async pauseReplay() {
      await replica.query('select pg_wal_replay_pause()');
      await waitFor(async () => (await replica.query<{ state: string }>('select pg_get_wal_replay_pause_state() as state')).rows[0]!.state === 'paused', {
        timeoutMs: 10_000, intervalMs: 20, what: 'WAL replay to pause on the replica',
      });
    },
    async resumeReplay() {
      await replica.query('select pg_wal_replay_resume()');
    },
    async caughtUp(timeoutMs = 10_000) {
      // The clusters run with synchronous_commit off, so a commit may not be written yet (nor sent to the replica).
      // A commit of our own with it on flushes everything before it; the flush position is then the end of that
      // commit record, which the replica reaches once it has replayed it (the insert position may lie past a page
      // header that no record ends at; pg_current_wal_lsn, behind commits not yet written).
      const session = await primary.connect();
      let lsn: string;
      try {
        await session.query('begin');
        await session.query('set local synchronous_commit = on');
        // A transaction that wrote no WAL commits without a flush whatever the setting: this one writes a record.
        await session.query(`select pg_logical_emit_message(true, 'bcat-cluster-test', 'caught up?')`);
        await session.query('commit');
        lsn = (await session.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn')).rows[0]!.lsn;
      } finally {
        session.release();
      }
      await waitFor(async () => (await replica.query<{ done: boolean }>('select coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) as done', [lsn])).rows[0]!.done, {
        timeoutMs, intervalMs: 20, what: `the replica to replay the primary's WAL up to ${lsn}`,
      });
    },
    async close() {
      await Promise.all([primary.end(), replica.end()]);
    },
  };
}

/** The pids whose parent is `parent` and whose command line contains `command`. */
export function childProcesses(parent: number, command: string): number[] {
  return childrenOf(parent).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(command);
    } catch {
      return false; // the process ended while we read
    }
  });
}

/** Bytes a process has passed to write-like system calls (`wchar` of /proc/<pid>/io): its sockets and its log lines. */
export function bytesWritten(pid: number): number {
  const match = /^wchar:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  if (!match) throw new Error(`no wchar in /proc/${pid}/io`);
  return Number(match[1]);
}

/** `npm run start:cluster`'s process, spawned as that script runs it. */
export interface ClusterProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** The JSON lines on stdout with `msg` of this value. */
  logLines(msg: string): Record<string, unknown>[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the primary and each worker still running, and waits for the primary. */
  dispose(): Promise<void>;
}

const clusters = new Set<ClusterProcess>();
let exitHookInstalled = false;

/**
 * `node --import tsx src/server/cluster.ts` (what `npm run start:cluster`
 * runs, without npm in between: npm itself does not pass on SIGTERM's exit
 * code) with only the environment given.
 */
export function spawnCluster({ env }: { env: Record<string, string> }): ClusterProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const cluster of clusters) killTree(cluster.pid);
    });
  }
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cluster.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const handle: ClusterProcess = {
    child,
    pid: child.pid!,
    output: () => out,
    logLines: (msg) => out.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === msg),
    exited,
    async dispose() {
      clusters.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      killTree(child.pid!);
      await exited;
    },
  };
  clusters.add(handle);
  void exited.then(() => clusters.delete(handle));
  return handle;
}

/** SIGKILL to a cluster's workers, then to its primary. */
function killTree(pid: number): void {
  for (const worker of childProcesses(pid, 'main.ts')) {
    try {
      process.kill(worker, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** Waits until every pid has exited, or fails after `timeoutMs`. */
export async function waitUntilGone(pids: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isProcessRunning)) {
    if (Date.now() > deadline) throw new Error(`processes still running after ${timeoutMs} ms: ${pids.filter(isProcessRunning).join(', ')}`);
    await sleep(50);
  }
}
