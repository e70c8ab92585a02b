/**
 * Keeps a command of test/support (a throwaway cluster, a PgBouncer that
 * `.ci/run` starts) running until its process gets SIGTERM or SIGINT, then
 * runs `stop` (what it started goes, folders included) and exits 0.
 */
export function runUntilStopped(stop: () => Promise<unknown>): void {
  const onSignal = (): void => {
    void stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // Nothing else keeps the process alive: this interval does, until a signal comes.
  setInterval(() => undefined, 1 << 30);
}
