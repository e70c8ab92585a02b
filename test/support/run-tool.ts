import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './server-process.ts';

/** How a tool's process ended, and all it wrote. */
export interface ToolRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A tool's process while it runs (a test that stops it halfway, or reads its output as it comes). */
export interface ToolProcess {
  readonly child: ChildProcess;
  /** Resolves when it has ended and its output is read; rejects when it could not start or ran past `timeoutMs`. */
  readonly done: Promise<ToolRun>;
  stdout(): string;
  stderr(): string;
}

export interface ToolOptions {
  /** The tool's whole environment: this process's by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** Past this, the process is stopped and `done` rejects with what it wrote. */
  readonly timeoutMs?: number;
  /** How a process past its time is stopped: SIGKILL, or a signal that lets it clean up (SIGKILL follows 15 s later). */
  readonly stopSignal?: NodeJS.Signals;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * `node --import tsx <tool> <args>` in the repository's root, as `npm run`
 * runs the tools (`tool` is a path such as `tools/keys.ts`), its output
 * captured. A process still running when the test process exits is killed.
 */
export function startTool(tool: string, args: readonly string[] = [], { env = process.env, timeoutMs = 60_000, stopSignal = 'SIGKILL' }: ToolOptions = {}): ToolProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const child of running) child.kill('SIGKILL');
    });
  }
  const child = spawn(process.execPath, ['--import', 'tsx', tool, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<ToolRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill(stopSignal);
      if (stopSignal !== 'SIGKILL') setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      reject(new Error(`${tool} ${args.join(' ')} took over ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    // `close`, not `exit`: by then both pipes are read to their end.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  // A test that stops the process itself may never await `done`.
  done.catch(() => undefined);
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

/** Runs a tool to its end (`startTool`): its exit code or signal, and what it wrote. */
export function runTool(tool: string, args: readonly string[] = [], options: ToolOptions = {}): Promise<ToolRun> {
  return startTool(tool, args, options).done;
}

/** An environment of PATH and HOME alone plus `extra`: a tool that must not see the run's DATABASE_URL, REDIS_URL or secrets. */
export function bareEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...extra };
}
