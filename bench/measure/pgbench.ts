import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

/** A pgbench writing in the background until stopped. */
export interface BackgroundPgbench {
  /** Stops it; resolves with the transactions its progress reports counted, and the seconds they cover. */
  stop(): Promise<{ transactions: number; seconds: number }>;
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
 */
export async function startPgbench(run: PgbenchRun): Promise<BackgroundPgbench> {
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbench-'));
  const file = join(dir, 'script.sql');
  await writeFile(file, run.script);
  // Far longer than any benchmark: stop() ends it.
  const child = spawnPgbench({ run, file, extra: ['-T', '86400', '-P', '1'] });
  const done = child.done.finally(() => rm(dir, { recursive: true, force: true }));
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
      return parsePgbenchProgress(output);
    },
  };
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
