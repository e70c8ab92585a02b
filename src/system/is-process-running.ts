import { readFileSync } from 'node:fs';

/**
 * Whether a process with this pid exists and has not ended. Signal 0 checks
 * that the pid exists without sending anything (EPERM: it exists but belongs
 * to another user, so it counts as running). But a pid also exists while the
 * process is a zombie (it ended and its parent has not reaped it yet, or
 * never will when the parent was killed with it and nothing reaps orphans):
 * on Linux its state in /proc/<pid>/stat says so (`Z`, or `X` while it goes
 * away), and such a process counts as ended. Without /proc, signal 0 alone
 * decides.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state !== 'Z' && state !== 'X';
}

/** The one-letter state of a process from /proc/<pid>/stat (`R`, `S`, `D`, `Z`...), or null when it cannot be read. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the state is the first field after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || null;
  } catch {
    return null;
  }
}

