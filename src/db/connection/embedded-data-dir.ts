import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessRunning } from '../../system/is-process-running.ts';

/**
 * The embedded database's folder: the PGlite data, the cursor secret made on
 * first start, the demo key, and a lock. PGlite lets two processes open one
 * folder and then loses data, so only one process may hold it.
 */

export const pgliteDir = (dataDir: string): string => join(dataDir, 'pglite');
const lockFile = (dataDir: string): string => join(dataDir, 'lock');
const secretFile = (dataDir: string): string => join(dataDir, 'cursor-secret');
const demoKeyFile = (dataDir: string): string => join(dataDir, 'demo-key');

/**
 * How long a start waits for the process that holds the folder to go: one
 * stopped a moment ago (SIGTERM, then SIGKILL) may still be ending, or
 * finishing its graceful stop, when it is started again at once.
 */
export const HOLDER_EXIT_WAIT_MS = 5_000;
const HOLDER_POLL_MS = 50;

/**
 * Takes the folder for this process, or says who holds it. Returns the release.
 *
 * A lock whose holder has ended (no such process, or a zombie: see
 * isProcessRunning) is taken over. One whose holder still runs is polled for
 * up to `waitMs`: a holder that is going lets go in that time (its process
 * ends, or it removes the lock itself), and then the folder is taken; a
 * holder still running after it is a live server, and the start is refused,
 * so two servers never share the folder.
 */
export async function lockDataDir(dataDir: string, { waitMs = HOLDER_EXIT_WAIT_MS }: { waitMs?: number } = {}): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const deadline = Date.now() + waitMs;
  // Each turn either takes the lock, waits for a running holder, or removes a dead one's lock; the bound is a safeguard.
  for (let attempt = 0; attempt < 1000; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return async () => {
        await unlink(file).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await lockHolder(file);
    if (holder > 0 && holder !== process.pid && isProcessRunning(holder)) {
      if (Date.now() >= deadline) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${holder} (is \`npm start\` running?). ` +
            'Stop it first, or set DATABASE_URL to use Postgres.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, HOLDER_POLL_MS));
      continue;
    }
    // Left by a process that ended. Removed only if it still names that process: a start racing this one
    // may have taken the folder since (a window of a few microseconds remains between this read and the unlink).
    if ((await lockHolder(file)) === holder) await unlink(file).catch(() => undefined);
  }
  throw new Error(`could not lock ${dataDir}`);
}

/** The pid a lock file names; 0 when there is none (no file, or not a pid). */
async function lockHolder(file: string): Promise<number> {
  const holder = Number(await readFile(file, 'utf8').catch(() => '0'));
  return Number.isInteger(holder) && holder > 0 ? holder : 0;
}

/** The cursor secret kept with the embedded data, made once on first start. */
export async function embeddedCursorSecret(dataDir: string): Promise<string> {
  const file = secretFile(dataDir);
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing && existing.trim().length >= 32) return existing.trim();
  const secret = randomBytes(32).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

export async function readDemoKey(dataDir: string): Promise<string | null> {
  const key = await readFile(demoKeyFile(dataDir), 'utf8').catch(() => null);
  return key ? key.trim() : null;
}

/** The demo key is kept in clear only here, in the local demo's own folder, so each start can print it. */
export async function writeDemoKey(dataDir: string, key: string): Promise<void> {
  await writeFile(demoKeyFile(dataDir), `${key}\n`, { mode: 0o600 });
}
