import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The repository's root: services start from here, so `--import tsx` resolves. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A server the bench started in a process of its own. */
export interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** The last lines it wrote (stdout and stderr), and how it exited if it did: for a failure's message. */
  output(): string;
  /** How it exited (`exited with code 1`, `killed by SIGTERM`), or null while it runs. */
  exitStatus(): string | null;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const KEPT_LINES = 40;
const READY_TIMEOUT_MS = 60_000;

/** A port free right now on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts `node --import tsx <script>` with the environment given (added to
 * this process's) on a free port passed as `PORT`, and resolves once it
 * answers HTTP at `readyPath` with any status, or with 200 when `readyOk`
 * (the server listens before its database can be served: its `/readyz`).
 * `node` is this process's Node unless given: `npm run bench:platformatic`
 * runs every side on a Node that Platformatic DB supports.
 */
export async function startService({ name, script, env, readyPath, readyOk = false, node = process.execPath, nodeArgs = [] }: {
  name: string;
  script: string;
  env: Readonly<Record<string, string>>;
  readyPath: string;
  readyOk?: boolean;
  node?: string;
  /** More Node options, after `--import tsx` (the allocation probe: bench/measure/heap-probe.ts). */
  nodeArgs?: readonly string[];
}): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(node, ['--import', 'tsx', ...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    lines.push(...chunk.toString().split('\n').filter((line) => line !== ''));
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exit: string | null = null;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => {
    exit = signal === null ? `exited with code ${code}` : `killed by ${signal}`;
    resolve(code);
  }));
  const origin = `http://127.0.0.1:${port}`;
  const service: ServiceProcess = {
    name,
    pid: child.pid!,
    origin,
    output: () => [...lines, ...(exit === null ? [] : [`(${name} ${exit})`])].join('\n'),
    exitStatus: () => exit,
    stop: (graceMs = 15_000) => stopChild({ child, exited, graceMs }),
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (Date.now() < deadline) {
    if (!running) throw new Error(`${name} exited before it was ready:\n${service.output()}`);
    const answer = await fetch(`${origin}${readyPath}`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (answer && (!readyOk || answer.ok)) return service;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await service.stop(1000);
  throw new Error(`${name} did not answer at ${origin}${readyPath} within ${READY_TIMEOUT_MS / 1000} s:\n${service.output()}`);
}

async function stopChild({ child, exited, graceMs }: { child: ChildProcess; exited: Promise<number | null>; graceMs: number }): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
