import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Context } from 'mocha';
import { closeTestDatabase } from './test-database.ts';

/**
 * Mocha root hooks. A serial run closes its database (and drops it on
 * Postgres) once, at the end. In a parallel run mocha runs root hooks around
 * every test file in a worker: there the database stays open for the worker's
 * next file, and the run's global teardown (run-fixtures.ts) drops it.
 *
 * With TEST_FILE_TIMES set to a path, each file's wall time (hooks included)
 * and CPU time (the worker's and its ended children's, not Postgres's) are
 * appended there as `<wall ms>\t<cpu ms>\t<file>`: where a slow suite spends
 * its time (a serial run appends one line, for all its files).
 */
const inWorker = process.env.MOCHA_WORKER_ID !== undefined;
const timesFile = process.env.TEST_FILE_TIMES;
let fileStarted = 0;
let cpuStarted = 0;

/** CPU seconds of this process and of its children that have ended (from /proc: Linux only; 0 elsewhere). */
function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime: fields 14 to 17 of the line, counted from the state (field 3).
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return 0;
  }
}

function fileOf(context: Context): string {
  if (!inWorker) return '(serial run: all files)';
  const root = context.test?.parent;
  const file = root?.file ?? root?.suites.find((suite) => suite.file)?.file;
  return file ? relative(process.cwd(), file) : '(unknown)';
}

export const mochaHooks = {
  beforeAll(): void {
    fileStarted = performance.now();
    if (timesFile) cpuStarted = cpuSeconds();
  },
  async afterAll(this: Context): Promise<void> {
    if (timesFile) appendFileSync(timesFile, `${Math.round(performance.now() - fileStarted)}\t${Math.round((cpuSeconds() - cpuStarted) * 1000)}\t${fileOf(this)}\n`);
    if (!inWorker) await closeTestDatabase();
  },
};
