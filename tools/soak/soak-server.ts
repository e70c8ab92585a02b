import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { collectJsonLines } from './json-lines.ts';
import { residentBytes } from '../shared/process-memory.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

/** The real server, as `npm start` runs it, in a child process on a loopback port. */
export interface SoakServer {
  readonly pid: number;
  readonly origin: string;
  /** Log lines at warn or above the server wrote on stdout (LOG_LEVEL=warn), parsed when they are JSON. */
  readonly warnings: readonly unknown[];
  /** Heap used and RSS now, in bytes (null when it could not be read). */
  sampleMemory(): Promise<MemorySample>;
  /** SIGTERM, then SIGKILL after a grace; resolves with the exit code (null when killed). */
  stop(): Promise<number | null>;
  /** SIGKILL at once, for a process that is exiting. */
  killNow(): void;
}

export interface MemorySample {
  readonly heapUsedBytes: number | null;
  readonly rssBytes: number | null;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port free on 127.0.0.1 a moment ago (the server takes it straight after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** One sample of a Prometheus text exposition, by exact metric name (no labels). */
export function metricValue(text: string, name: string): number | null {
  const match = new RegExp(`^${name}(?:\\{\\})? ([0-9.eE+-]+)`, 'm').exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * Polls `/readyz` until it answers 200. Throws, with what the server wrote on
 * stderr, when the process exits first or `startTimeoutMs` passes (then the
 * process is killed).
 */
async function waitUntilReady({ origin, startTimeoutMs, child, exitCode, stderr }: {
  origin: string;
  startTimeoutMs: number;
  child: ChildProcess;
  exitCode: () => number | null | undefined;
  stderr: () => string;
}): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exitCode() !== undefined) throw new Error(`the server exited (code ${exitCode()}) before it was ready:\n${stderr().trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within ${startTimeoutMs / 1000} s:\n${stderr().trim()}`);
    }
    const ready = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts `node --import tsx src/server/main.ts` with the given settings on a
 * free port and waits until `/readyz` answers 200 (or the process dies, or
 * `startTimeoutMs` passes). The soak's variables replace any the caller's
 * environment had for the database, Redis, port, logs and limits.
 */
export async function startSoakServer({ env, startTimeoutMs = 90_000, nodeArgs = [] }: {
  env: Readonly<Record<string, string>>;
  startTimeoutMs?: number;
  /** Node's own options for the server (`--cpu-prof`, which NODE_OPTIONS may not carry). */
  nodeArgs?: readonly string[];
}): Promise<SoakServer> {
  const port = await freePort();
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'CURSOR_SECRET', 'DATA_DIR', 'PORT', 'LOG_LEVEL', 'RATE_LIMIT_POINTS', 'RATE_LIMIT_WINDOW_SECONDS', 'TRUST_PROXY']) delete inherited[name];
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...inherited, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const warnings = collectJsonLines({ stream: child.stdout!, max: 1000 });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    });
  });
  await waitUntilReady({ origin, startTimeoutMs, child, exitCode: () => exitCode, stderr: () => stderr });

  const pid = child.pid!;
  return {
    pid,
    origin,
    warnings,
    async sampleMemory() {
      const text = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(5000) }).then((r) => (r.ok ? r.text() : ''), () => '');
      const rss = (await residentBytes(pid)) ?? metricValue(text, 'bcat_process_resident_memory_bytes');
      return { heapUsedBytes: metricValue(text, 'bcat_nodejs_heap_size_used_bytes'), rssBytes: rss };
    },
    async stop() {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    killNow() {
      if (exitCode === undefined) child.kill('SIGKILL');
    },
  };
}
