/**
 * Whether a process with this pid exists: signal 0 checks without sending
 * anything. EPERM means it exists but belongs to another user, so it counts
 * as running. A zombie (ended, not yet reaped) still counts as running.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
