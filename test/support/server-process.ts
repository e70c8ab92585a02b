import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait-for.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';

/** The repository's root: where `npm start` runs. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`, the port from the start-up banner. */
  readonly origin: string;
  readonly port: number;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process ends, with its exit code and when it ended (performance.now()). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Kills it (SIGKILL) if it still runs, and waits for it. */
  dispose(): Promise<void>;
}

/** A server process just spawned: `started` once it listens, `exited` when it ends (a failed start included). */
export interface SpawnedServer {
  readonly child: ChildProcess;
  /** The server's own pid: the child's, or with `unreaped` the one the shell reports. */
  readonly pid: Promise<number>;
  readonly started: Promise<ServerProcess>;
  readonly exited: ServerProcess['exited'];
  stdout(): string;
  stderr(): string;
  dispose(): Promise<void>;
}

const processes = new Set<ChildProcess>();
let processHookInstalled = false;

/**
 * `node --import tsx src/server/main.ts` with only the environment given
 * (never the run's DATABASE_URL or REDIS_URL), on a port of its choosing
 * (PORT=0). Resolves once the banner names the port (and, with
 * DATABASE_URL, the database can be served: `until`); rejects when the
 * process exits first (with its output) or does not start within `timeoutMs`.
 *
 * With `unreaped`, the server runs in a process group of its own (its pid is
 * the group's id) under a shell that never reaps it: killed, it stays a
 * zombie until `dispose()`, as a server killed with its parent stays where
 * nothing reaps orphans. `child` is then the shell, and `exited` its end.
 */
export function spawnServer({ env, timeoutMs = 30_000, unreaped = false, until = 'ready' }: {
  env: Record<string, string>;
  timeoutMs?: number;
  unreaped?: boolean;
  /** `ready` (on Postgres, once the database can be served) or `listening` (the banner, whatever the database). */
  until?: 'ready' | 'listening';
}): SpawnedServer {
  if (!processHookInstalled) {
    processHookInstalled = true;
    process.on('exit', () => {
      for (const child of processes) child.kill('SIGKILL');
    });
  }
  const server = [process.execPath, ...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts'];
  // `setsid` in a background job of a shell without job control keeps its pid (it is no group leader), and
  // `exec sleep` leaves a parent that never waits for it.
  const [command, ...args] = unreaped ? ['sh', '-c', 'setsid "$@" & echo "server pid $!" >&2; exec sleep 3600', 'sh', ...server] : server;
  const child = spawn(command!, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => {
      processes.delete(child);
      resolve({ code, signal, at: performance.now() });
    });
  });
  const pid = unreaped
    ? new Promise<number>((resolve, reject) => {
      const onData = (): void => {
        const match = /^server pid (\d+)$/m.exec(err);
        if (!match) return;
        child.stderr!.off('data', onData);
        resolve(Number(match[1]));
      };
      child.stderr!.on('data', onData);
      void exited.then(() => reject(new Error(`the shell exited before it started the server:\n${err}`)));
    })
    : Promise.resolve(child.pid!);
  pid.catch(() => undefined);
  const dispose = async (): Promise<void> => {
    if (unreaped) {
      const serverPid = await Promise.race([pid, exited.then(() => 0)]);
      // The server's whole group; the shell's end then lets init reap what is left.
      if (serverPid > 0) {
        try {
          process.kill(-serverPid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  const listening = new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      void dispose();
      reject(new Error(`the server did not start within ${timeoutMs} ms:\n${err}\n${out}`));
    }, timeoutMs);
    const onData = (): void => {
      const match = /on http:\/\/localhost:(\d+)\//.exec(err);
      if (!match) return;
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      const port = Number(match[1]);
      resolve({ child, origin: `http://127.0.0.1:${port}`, port, stdout: () => out, stderr: () => err, exited, dispose });
    };
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before it started:\n${err}\n${out}`));
    });
  });
  // On Postgres the server listens before its database can be served (it answers 503 meanwhile): unless the
  // test asks for the listening server, wait until /readyz no longer says "starting".
  const started = until === 'listening' || !env.DATABASE_URL ? listening : listening.then(async (server) => {
    await waitFor(async () => {
      const response = await fetch(`${server.origin}/readyz`).catch(() => null);
      return response !== null && (await response.json() as { database?: string }).database !== 'starting';
    }, { timeoutMs, intervalMs: 50, what: `the server to be ready:\n${err}\n${out}` }).catch(async (error: Error) => {
      await dispose();
      throw error;
    });
    return server;
  });
  // A test that expects a failed start reads `exited`; the rejection must not go unhandled then.
  started.catch(() => undefined);
  return { child, pid, started, exited, stdout: () => out, stderr: () => err, dispose };
}

