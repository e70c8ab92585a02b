/**
 * `npm run export -- <family> --brand <slug> [--<filter> <value>...] [--format ndjson|csv] [--out <file> [--restart]] [--page-size <n>]`
 *
 * Writes every record of a family (that the filters match) through the
 * client, to stdout or to a file; an export to a file that stops (Ctrl-C, a
 * failure) resumes where it stopped when run again with the same arguments.
 * Reads API_URL (default http://127.0.0.1:3000) and API_KEY. The key is taken
 * from the environment only, never from an argument, so it stays out of shell
 * history and process lists.
 *
 * Exit codes: 0 done, 1 the API or the file failed, 2 a usage error or a
 * refused resume, 130 interrupted (resumable when writing a file).
 */
import { ApiError, createClient, NetworkError } from '../client/src/index.ts';
import { EXPORT_USAGE, parseExportArgs, UsageError, type ExportCommand } from './lib/export-args.ts';
import { ExportRefused, runExport } from './lib/export-run.ts';
import { createProgress } from './lib/progress.ts';

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

const progress = createProgress({ write: (text) => process.stderr.write(text), tty: Boolean(process.stderr.isTTY), label: command.family });

try {
  const client = createClient({
    baseUrl: process.env.API_URL || DEFAULT_API_URL,
    apiKey,
    brand: command.brand,
    onRetry: (notice) => progress.retrying(notice),
  });
  const result = await runExport({
    client,
    family: command.family,
    filters: command.filters,
    format: command.format,
    out: command.out ?? process.stdout,
    pageSize: command.pageSize,
    restart: command.restart,
    progress,
    signal: controller.signal,
  });
  process.exitCode = result.complete ? 0 : 130;
} catch (error) {
  if (error instanceof ExportRefused) fail(error.message, 2);
  if (error instanceof ApiError || error instanceof NetworkError) {
    // Worth a rerun only when the failure may pass (the network, the rate limit, the server); a 4xx will not.
    const passing = error instanceof NetworkError || error.status === 429 || error.status >= 500;
    fail(`export failed: ${error.message}${command.out && passing ? '\nWhat was written is kept: run the same command again to resume.' : ''}`, 1);
  }
  fail(`export failed: ${(error as Error).message}`, 1);
}
