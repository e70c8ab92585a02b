import { cp, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runTool } from './run-tool.ts';
import { RUN_ID_VARIABLE } from './test-database.ts';
import { waitFor } from './wait-for.ts';

/**
 * Embedded data folders for tests whose subject is not a new folder (the
 * keys command, a restart over a lock, the prune command, openServices).
 *
 * A new folder costs 5 to 12 s of CPU: PGlite's initdb in WebAssembly, the
 * migrations, the demo data; a copy of one costs a fraction of a second. So
 * the first test of a run that asks makes one folder the way a user does,
 * with `npm run db:seed` in an empty DATA_DIR (and fails if that fails), and
 * every test gets a copy of its own. Tests of a first start (demo data loaded
 * once, a folder made and migrated) still make their own.
 *
 * The folder is the run's (named by its id, which every worker of a mocha
 * run shares): the first worker to ask makes it, the others wait for it, and
 * the run's teardown removes it (run-fixtures.ts). A process outside a
 * parallel run (one file) keeps it until it exits.
 */

const run = process.env[RUN_ID_VARIABLE];
/** The seeded folder of a run (or of a process outside one). */
const templateOf = (owner: string): string => join(tmpdir(), `bcat-seeded-${owner}`);
const TEMPLATE = templateOf(run ?? `p${process.pid}`);
const READY = join(TEMPLATE, 'ready');
/** Making the folder takes about 12 s alone, and up to a minute beside a busy suite; past this it hangs. */
const MAKE_TIMEOUT_MS = 170_000;

let made: Promise<void> | null = null;

/** A new folder holding a copy of the seeded one; the caller removes it (`rm(dir, { recursive: true })`). */
export async function copyOfSeededDataDir(prefix = 'bcat-seeded-copy-'): Promise<string> {
  made ??= makeTemplate();
  await made;
  const dir = await mkdtemp(join(tmpdir(), prefix));
  // Without a lock the command may have left: the copy is no process's yet.
  await cp(join(TEMPLATE, 'data'), dir, { recursive: true, filter: (source) => basename(source) !== 'lock' });
  return dir;
}

/** Removes the run's folder (the run's teardown; nothing if no test asked for it). */
export async function removeSeededDataDir(runId: string): Promise<void> {
  await rm(templateOf(runId), { recursive: true, force: true });
  await rm(`${templateOf(runId)}.making`, { recursive: true, force: true });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

async function makeTemplate(): Promise<void> {
  if (await exists(READY)) return;
  const making = `${TEMPLATE}.making`;
  const mine = await mkdir(making).then(() => true, (error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return false;
    throw error;
  });
  if (!mine) {
    // Another worker of the run is making it.
    await waitFor(() => exists(READY), { timeoutMs: MAKE_TIMEOUT_MS, intervalMs: 200, what: `the seeded data folder ${TEMPLATE}` });
    return;
  }
  if (!run) process.once('exit', () => rmSync(TEMPLATE, { recursive: true, force: true }));
  const dataDir = join(making, 'data');
  await seed(dataDir);
  await mkdir(join(making, 'ready'));
  await rename(making, TEMPLATE);
}

/** `npm run db:seed` in an empty DATA_DIR, on the embedded database, as a user runs it. */
async function seed(dataDir: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'CURSOR_SECRET', 'PORT']) delete env[name];
  const { code, stdout, stderr } = await runTool('tools/db-seed.ts', [], { env, timeoutMs: MAKE_TIMEOUT_MS });
  if (code !== 0) throw new Error(`npm run db:seed in ${dataDir} exited with ${code}:\n${stdout}\n${stderr}`);
  if (!/Loaded the demo data/.test(stdout)) throw new Error(`npm run db:seed in ${dataDir} loaded nothing:\n${stdout}`);
}
