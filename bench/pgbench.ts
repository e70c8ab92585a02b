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

/**
 * Runs Debian's `pgbench` (the postgresql-client package) with one custom
 * script against `url` for `seconds`: `clients` sessions on up to two
 * threads, variables passed with `-D`, session settings with PGOPTIONS, and
 * a target `rate` in transactions per second when given (else as fast as it
 * goes). pgbench is a C program: unlike a Node load generator it leaves the
 * cores to what is measured.
 */
export async function runPgbench({ url, script, seconds, clients, variables = {}, settings = {}, rate = null }: {
  url: string;
  script: string;
  seconds: number;
  clients: number;
  variables?: Readonly<Record<string, string | number>>;
  settings?: Readonly<Record<string, string>>;
  rate?: number | null;
}): Promise<PgbenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bcat-pgbench-'));
  try {
    const file = join(dir, 'script.sql');
    await writeFile(file, script);
    const args = [
      '-n', '-f', file, '-T', String(seconds), '-c', String(clients), '-j', String(Math.min(2, clients)),
      ...Object.entries(variables).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
      ...(rate === null ? [] : ['-R', String(rate)]),
      url,
    ];
    const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');
    return parsePgbenchOutput(await run('pgbench', args, { ...process.env, PGOPTIONS: options }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('error', (error) => reject(new Error(`${command} could not run (${error.message}); it comes with Debian's postgresql-client`)));
    child.once('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} exited with code ${code}:\n${output.slice(-2000)}`))));
  });
}
