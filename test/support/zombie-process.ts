import { spawn } from 'node:child_process';
import { processState } from '../../src/system/is-process-running.ts';
import { waitFor } from './wait-for.ts';

/** A process that has ended and stays unreaped (a zombie) until `dispose()`. */
export interface ZombieProcess {
  readonly pid: number;
  dispose(): Promise<void>;
}

/**
 * A shell starts a subshell in the background and becomes `sleep` (exec),
 * which never waits for its children; the subshell ends as soon as its
 * parent is `sleep` (dash reaps a child that ends before the exec), and
 * stays a zombie. `dispose()` ends the sleep; what reaps orphans, if
 * anything, then reaps the zombie.
 */
export async function spawnZombie(): Promise<ZombieProcess> {
  const parent = spawn('sh', ['-c', '(while [ "$(cat /proc/$$/comm)" != sleep ]; do :; done) & echo $!; exec sleep 3600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => parent.once('exit', resolve));
  let out = '';
  parent.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const dispose = async (): Promise<void> => {
    if (parent.exitCode === null && parent.signalCode === null) {
      parent.kill('SIGKILL');
      await exited;
    }
  };
  try {
    const pid = await waitFor(async () => (/^\d+$/m.test(out) ? Number(out.trim()) : false), { timeoutMs: 5_000, intervalMs: 10, what: 'the shell to name its child' });
    await waitFor(async () => processState(pid) === 'Z', { timeoutMs: 5_000, intervalMs: 10, what: `process ${pid} to be a zombie` });
    return { pid, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
