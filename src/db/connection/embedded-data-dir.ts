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

/** Takes the folder for this process, or says who holds it. Returns the release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return async () => {
        await unlink(file).catch(() => undefined);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(file, 'utf8').catch(() => '0'));
      if (holder > 0 && holder !== process.pid && isProcessRunning(holder)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${holder} (is \`npm start\` running?). ` +
            'Stop it first, or set DATABASE_URL to use Postgres.',
        );
      }
      await unlink(file).catch(() => undefined); // left by a process that died
    }
  }
  throw new Error(`could not lock ${dataDir}`);
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
