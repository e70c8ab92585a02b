/**
 * `npm run export -- <family> --brand <slug> [--<filter> <value>...] [--format ndjson|csv] [--out <file> [--restart]] [--page-size <n>]`
 * `npm run export -- <family> --brand <slug> --sync-state <file> --out <file> [--format ...] [--restart] [--resync-expired]`
 *
 * Writes every record of a family (that the filters match) through the
 * client, to stdout or to a file; an export to a file that stops (Ctrl-C, a
 * failure) resumes where it stopped when run again with the same arguments.
 * With `--sync-state`, each run appends to the file what changed since the
 * last one (the changes feed), keeping the token in the state file.
 * Reads API_URL (default http://127.0.0.1:3000) and API_KEY. The key is taken
 * from the environment only, never from an argument, so it stays out of shell
 * history and process lists.
 *
 * Exit codes: 0 done, 1 the API or the file failed, 2 a usage error or a
 * refused resume, 3 the sync token has expired (rerun with --resync-expired),
 * 130 interrupted (resumable when writing a file).
 */
import { ApiError, createClient, NetworkError, type BrandCatalogClient, type ChangesPath } from '../client/src/index.ts';
import { createChangesProgress } from './export/changes-progress.ts';
import { ExportTokenExpired, runChangesExport } from './export/changes-export-run.ts';
import { EXPORT_USAGE, parseExportArgs, UsageError, type ExportArgs, type ExportCommand } from './export/export-args.ts';
import { ExportRefused, runExport } from './export/export-run.ts';
import { createProgress } from './export/progress.ts';
import { FOLLOW_WAIT_SECONDS, followExport } from './export/follow-export.ts';

const DEFAULT_API_URL = 'http://127.0.0.1:3000';

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let command: ExportCommand;
try {
  command = parseExportArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  fail(`${error.message}\n${EXPORT_USAGE}`, 2);
}
if (command.help) {
  process.stdout.write(`${EXPORT_USAGE}\n`);
  process.exit(0);
}

const apiKey = process.env.API_KEY;
if (!apiKey) fail(`API_KEY is not set: export the key to use (npm run keys -- create --brand ${command.brand}).\n${EXPORT_USAGE}`, 2);

// A reader that closes the pipe early (`| head`) has what it wanted.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  fail(`stdout: ${error.message}`, 1);
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const tty = Boolean(process.stderr.isTTY);
const write = (text: string): void => void process.stderr.write(text);

/** A full export; true when it reached the end. */
async function exportAll(args: ExportArgs, connect: (onRetry: (notice: { delayMs: number; reason: string }) => void) => BrandCatalogClient): Promise<boolean> {
  const progress = createProgress({ write, tty, label: args.family });
  const result = await runExport({
    client: connect((notice) => progress.retrying(notice)),
    family: args.family,
    filters: args.filters,
    format: args.format,
    out: args.out ?? process.stdout,
    pageSize: args.pageSize,
    restart: args.restart,
    progress,
    signal: controller.signal,
  });
  return result.complete;
}

/** One batch of the changes feed appended to --out (with --follow, batch after batch until stopped); true when the last batch ended and its token is saved. */
async function exportChanges(args: ExportArgs, connect: (onRetry: (notice: { delayMs: number; reason: string }) => void) => BrandCatalogClient): Promise<boolean> {
  const progress = createChangesProgress({ write, tty, label: args.family });
  const client = connect((notice) => progress.retrying(notice));
  const runBatch = async (first: boolean): Promise<boolean> => (await runChangesExport({
    client,
    // The arguments were checked: a family with a feed, an out file.
    family: args.family as ChangesPath,
    format: args.format,
    out: args.out!,
    statePath: args.syncState!,
    pageSize: args.pageSize,
    restart: first && args.restart,
    resyncExpired: args.resyncExpired,
    progress,
    signal: controller.signal,
    ...(args.follow ? { wait: FOLLOW_WAIT_SECONDS } : {}),
  })).complete;
  if (!args.follow) return runBatch(true);
  await followExport({ runBatch, signal: controller.signal, onRetry: (error, delayMs) => progress.retrying({ delayMs, reason: error.message }) });
  // Stopped by a signal: the state file is current and a rerun resumes.
  return true;
}


try {
  const connect = (onRetry: (notice: { delayMs: number; reason: string }) => void): BrandCatalogClient =>
    createClient({ baseUrl: process.env.API_URL || DEFAULT_API_URL, apiKey, brand: command.brand, onRetry });
  const complete = await (command.syncState === null ? exportAll : exportChanges)(command, connect);
  process.exitCode = complete ? 0 : 130;
} catch (error) {
  if (error instanceof ExportRefused) fail(error.message, 2);
  if (error instanceof ExportTokenExpired) fail(error.message, 3);
  if (error instanceof ApiError || error instanceof NetworkError) {
    // Worth a rerun only when the failure may pass (the network, the rate limit, the server); a 4xx will not.
    const passing = error instanceof NetworkError || error.status === 429 || error.status >= 500;
    fail(`export failed: ${error.message}${command.out && passing ? '\nWhat was written is kept: run the same command again to resume.' : ''}`, 1);
  }
  fail(`export failed: ${(error as Error).message}`, 1);
}
