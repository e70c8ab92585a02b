import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one pgbench run did. */
export interface PgbenchResult {
  readonly transactions: number;
  /** Transactions per second, as pgbench reports it (without the time to connect). */
  readonly tps: number;
  /** Mean latency of a transaction, in milliseconds. */
  readonly latencyMs: number;
}

/** The run's figures from pgbench's closing report; throws when they are not there (pgbench failed). */
export function parsePgbenchOutput(output: string): PgbenchResult {
  const transactions = /number of transactions actually processed: (\d+)/.exec(output);
  const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(output);
  const latency = /latency average = ([0-9.]+) ms/.exec(output);
  if (!transactions || !tps || !latency) throw new Error(`pgbench gave no result:\n${output.slice(-2000)}`);
  return { transactions: Number(transactions[1]), tps: Number(tps[1]), latencyMs: Number(latency[1]) };
}

/** What pgbench is asked to run. */
export interface PgbenchRun {
  readonly url: string;
  readonly script: string;
  readonly clients: number;
  readonly variables?: Readonly<Record<string, string | number>>;
  readonly settings?: Readonly<Record<string, string>>;
  /** A target rate in transactions per second (else as fast as it goes). */
  readonly rate?: number | null;
}

/** One transaction a pgbench ran, from its per-transaction log (`-l`). */
export interface LoggedTransaction {
  /** When it ended, in milliseconds since the epoch (this machine's clock, as `Date.now()`). */
  readonly endedAtMs: number;
  readonly latencyMs: number;
}

/** A pgbench writing in the background until stopped. */
export interface BackgroundPgbench {
  /**
   * Stops it; resolves with the transactions its progress reports counted,
   * and the seconds they cover, and (when started with `logTransactions`)
   * every transaction it ran, in the order they ended.
   */
  stop(): Promise<{ transactions: number; seconds: number; logged: LoggedTransaction[] }>;
  /**
   * With `logTransactions`: until when the log on disk is complete, while it
   * runs. pgbench buffers each thread's log and writes it out a block at a
   * time, and a stop loses the block not yet written: the transactions that
   * ended before this instant are all on disk (every thread has written one
   * that ended after it). 0 while some thread has written none.
   */
  loggedUntil(): Promise<number>;
}

/**
 * The transactions of one of pgbench's per-transaction logs (`-l`;
 * PostgreSQL 15: `client_id transaction_no time script_no time_epoch time_us
 * [schedule_lag]`, `time` the latency in microseconds, or `skipped` or
 * `failed`), those that ran, in the order they ended. A last line without
 * its newline (the log of a pgbench stopped while writing) is left out.
 */
export function parsePgbenchLog(text: string): LoggedTransaction[] {
  const logged: LoggedTransaction[] = [];
  const lines = text.split('\n');
  lines.pop();
  for (const line of lines) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 6 || !fields.every((field) => /^[0-9]+$/.test(field))) continue;
    logged.push({ endedAtMs: Number(fields[4]) * 1000 + Number(fields[5]) / 1000, latencyMs: Number(fields[2]) / 1000 });
  }
  return logged.sort((a, b) => a.endedAtMs - b.endedAtMs);
}

/** The transactions and seconds of pgbench's progress lines (`progress: 2.0 s, 51.8 tps, ...`), one a second. */
export function parsePgbenchProgress(output: string): { transactions: number; seconds: number } {
  let transactions = 0;
  let seconds = 0;
  for (const match of output.matchAll(/^progress: ([0-9.]+) s, ([0-9.]+) tps/gm)) {
    const at = Number(match[1]);
    transactions += Number(match[2]) * (at - seconds);
    seconds = at;
  }
  return { transactions: Math.round(transactions), seconds };
}

/**
 * Runs Debian's `pgbench` (the postgresql-client package) with one custom
 * script against `url` for `seconds`: `clients` sessions on up to two
 * threads, variables passed with `-D`, session settings with PGOPTIONS, and
 * a target `rate` when given. pgbench is a C program: unlike a Node load
 * generator it leaves the cores to what is measured.
 */
export async function runPgbench({ seconds, ...run }: PgbenchRun & { seconds: number }): Promise<PgbenchResult> {
  return withScript(run.script, async (file) => {
    const child = spawnPgbench({ run, file, extra: ['-T', String(seconds)] });
    const { code, output } = await child.done;
    if (code !== 0) throw new Error(`pgbench exited with code ${code}:\n${output.slice(-2000)}`);
    return parsePgbenchOutput(output);
  });
}

/**
 * Starts pgbench in the background (as `runPgbench`, with a progress line
 * each second) for a write load beside a read benchmark; `stop()` ends it.
 * With `logTransactions`, pgbench logs every transaction (`-l`) into its own
 * temporary folder, read at the stop.
 */
export async function startPgbench(run: PgbenchRun & { logTransactions?: boolean }): Promise<BackgroundPgbench> {
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbench-'));
  const file = join(dir, 'script.sql');
  await writeFile(file, run.script);
  const log = run.logTransactions ? ['-l', `--log-prefix=${join(dir, 'log')}`] : [];
  const threads = Math.min(2, run.clients);
  // Far longer than any benchmark: stop() ends it.
  const child = spawnPgbench({ run, file, extra: ['-T', '86400', '-P', '1', ...log] });
  let logged: LoggedTransaction[] = [];
  const done = child.done
    .then(async (result) => {
      // What a thread had not written out when it was stopped is lost: `loggedUntil` says how far the log is whole.
      if (run.logTransactions) logged = await readLogs(dir);
      return result;
    })
    .finally(() => rm(dir, { recursive: true, force: true }));
  // Could not run at all: stop() says so; until then the rejection is not an unhandled one.
  done.catch(() => undefined);
  return {
    async stop() {
      const stopped = !child.exited();
      if (stopped) child.interrupt();
      const { code, output } = await done;
      // Interrupted, pgbench ends with an error status; ended by itself before stop(), or with an error from
      // a session (a refused connection, a failing script), the load did not run as asked.
      if ((!stopped && code !== 0) || /^pgbench: error:/m.test(output)) {
        throw new Error(`pgbench failed${stopped ? '' : ` (exit code ${code}) before it was stopped`}:\n${output.slice(-2000)}`);
      }
      return { ...parsePgbenchProgress(output), logged };
    },
    async loggedUntil() {
      const files = await logFiles(dir).catch(() => []);
      if (files.length < threads) return 0;
      const lasts = await Promise.all(files.map(async (file) => parsePgbenchLog(await readFile(file, 'utf8')).at(-1)?.endedAtMs ?? 0));
      return Math.min(...lasts);
    },
  };
}

/** Every thread's log in `dir`: `log.<pid>`, `log.<pid>.<thread>`. */
async function logFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('log.')).map((name) => join(dir, name));
}

/** The transactions of every thread's log in `dir`, in the order they ended. */
async function readLogs(dir: string): Promise<LoggedTransaction[]> {
  const texts = await Promise.all((await logFiles(dir)).map((file) => readFile(file, 'utf8')));
  return texts.flatMap(parsePgbenchLog).sort((a, b) => a.endedAtMs - b.endedAtMs);
}

async function withScript<T>(script: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbench-'));
  try {
    const file = join(dir, 'script.sql');
    await writeFile(file, script);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spawnPgbench({ run, file, extra }: { run: PgbenchRun; file: string; extra: readonly string[] }): {
  /** Its exit status and everything it printed; rejects only when it could not run at all. */
  done: Promise<{ code: number | null; output: string }>;
  exited(): boolean;
  interrupt(): void;
} {
  const args = [
    '-n', '-f', file, ...extra, '-c', String(run.clients), '-j', String(Math.min(2, run.clients)),
    ...Object.entries(run.variables ?? {}).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
    ...(run.rate === null || run.rate === undefined ? [] : ['-R', String(run.rate)]),
    run.url,
  ];
  const options = Object.entries(run.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`).join(' ');
  const child = spawn('pgbench', args, { env: { ...process.env, PGOPTIONS: options }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const done = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`pgbench could not run (${error.message}); it comes with Debian's postgresql-client`)));
    child.once('close', (code) => {
      exited = true;
      resolve({ code, output });
    });
  });
  return { done, exited: () => exited, interrupt: () => child.kill('SIGINT') };
}
