/**
 * `npm run bench -- [options]`: loads a data set at a chosen scale, runs the
 * server and a bare Koa + pg floor on it, loads both with autocannon, prints
 * the table on stdout (progress on stderr) and writes it as Markdown and JSON.
 * `npm run bench -- --help` lists the options.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defaultOutPath, jsonPathOf, parseBenchArgs, UsageError, USAGE, type CommandOptions } from './measure/options.ts';
import { renderMarkdown } from './report/report.ts';
import { runBenchmark } from './measure/run-benchmark.ts';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
let options: CommandOptions;
try {
  options = parseBenchArgs({ args, env: process.env });
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n${USAGE}\n`);
  process.exit(2);
}

const log = (message: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
// The first Ctrl-C stops the run at its next step and cleans up (processes, database); a second one exits at once.
const interrupted = new AbortController();
process.once('SIGINT', () => {
  log('interrupted: stopping after the current step, then cleaning up (Ctrl-C again to exit at once)');
  interrupted.abort();
  process.once('SIGINT', () => process.exit(130));
});

try {
  const report = await runBenchmark({ options, log, signal: interrupted.signal });
  const markdown = renderMarkdown(report);
  process.stdout.write(markdown);
  const out = options.out ?? defaultOutPath({ scale: options.scale, date: new Date(report.startedAt) });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, markdown);
  await writeFile(jsonPathOf(out), `${JSON.stringify(report, null, 2)}\n`);
  log(`wrote ${out} and ${jsonPathOf(out)}`);
} catch (error) {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(interrupted.signal.aborted ? 130 : 1);
}
