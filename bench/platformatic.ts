/**
 * `npm run bench:platformatic -- [options]`: the server, the prepared floor
 * and Platformatic DB 3 on the database `npm run bench -- --keep-data`
 * loaded, the same records asked of each; prints the table on stdout
 * (progress on stderr) and writes it as Markdown and JSON.
 * `npm run bench:platformatic -- --help` lists the options.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { jsonPathOf, UsageError } from './measure/options.ts';
import { parsePlatformaticArgs, platformaticOutPath, PLATFORMATIC_USAGE, type PlatformaticOptions } from './peers/platformatic-options.ts';
import { renderPlatformatic } from './peers/platformatic-report.ts';
import { NotLoadedError, runPlatformaticComparison } from './peers/run-platformatic.ts';
import type { ServiceProcess } from './measure/service-process.ts';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${PLATFORMATIC_USAGE}\n`);
  process.exit(0);
}
let options: PlatformaticOptions;
try {
  options = parsePlatformaticArgs({ args, env: process.env });
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n${PLATFORMATIC_USAGE}\n`);
  process.exit(2);
}

const log = (message: string): void => {
  process.stderr.write(`[bench:platformatic ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const running: ServiceProcess[] = [];
/**
 * A Ctrl-C reaches this process more than once: the terminal signals the
 * whole process group, and npm and tsx, in it, relay theirs. Signals within
 * this long of the first are that same Ctrl-C.
 */
const SAME_INTERRUPT_MS = 2000;
// The first Ctrl-C (or SIGTERM) stops the run at its next step and stops every process it started; another one later kills them and exits at once.
const interrupted = new AbortController();
let interruptedAt = 0;
const onSignal = (signal: NodeJS.Signals): void => {
  if (!interrupted.signal.aborted) {
    interruptedAt = Date.now();
    log(`${signal}: stopping after the current step, then stopping every process started (again to exit at once)`);
    interrupted.abort();
    return;
  }
  if (Date.now() - interruptedAt < SAME_INTERRUPT_MS) return;
  for (const service of running) {
    try {
      process.kill(service.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  process.exit(130);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

try {
  const report = await runPlatformaticComparison({ options, log, signal: interrupted.signal, running });
  const markdown = renderPlatformatic(report);
  process.stdout.write(markdown);
  const out = options.out ?? platformaticOutPath({ scale: options.scale, date: new Date(report.startedAt) });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, markdown);
  await writeFile(jsonPathOf(out), `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${out} and ${jsonPathOf(out)}`);
} catch (error) {
  if (interrupted.signal.aborted) log(`interrupted (${(error as Error).message}); every process it started is stopped`);
  else log(error instanceof NotLoadedError ? error.message : `failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(interrupted.signal.aborted ? 130 : 1);
}
