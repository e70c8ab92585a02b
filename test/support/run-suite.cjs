// `npm test`: the whole suite, in two mocha runs, and one closing line for both.
//
//   1. every file but those that must run alone (test/support/suite-files.cjs),
//      in parallel worker processes (.mocharc.cjs);
//   2. those files, in one process, one after the other: on Postgres only.
//      On the embedded database each worker has a database of its own, in its
//      own process, so nothing another file does can move what those files
//      watch (the snapshot, the oldest running transaction); they go with the
//      rest, and a run is spared a second mocha start and a tail on one core.
//
// Each run prints its own "N passed, N failed" line; the last line printed is
// the sum of both, the line CI reads. Arguments (`npm test -- --grep x`, or
// files) go to mocha as they are, in one run.
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { ALONE, aloneFiles } = require('./suite-files.cjs');

const ROOT = resolve(__dirname, '../..');
const MOCHA = require.resolve('mocha/bin/mocha.js', { paths: [ROOT] });

/** Runs mocha with `args`; returns its counts (null if it ended without any) and exit status. */
function run(args, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bcat-suite-'));
  const summaryFile = join(dir, 'summary.json');
  try {
    const result = spawnSync(process.execPath, [MOCHA, ...args], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env, TEST_SUMMARY_FILE: summaryFile } });
    let counts = null;
    try {
      counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
    } catch {
      counts = null;
    }
    return { counts, status: result.status ?? 1, signal: result.signal };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = ({ passes, failures, pending }) => `${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`;

function main() {
  const given = process.argv.slice(2);
  if (given.length > 0) return run(given).status;

  const alone = process.env.DATABASE_URL ? aloneFiles() : [];
  const missing = ALONE.filter((file) => !aloneFiles().includes(file));
  if (missing.length > 0) {
    process.stderr.write(`test/support/suite-files.cjs lists files to run alone that do not exist: ${missing.join(', ')}\n`);
    return 1;
  }
  const parts = [
    { title: 'files run in parallel', result: run([], alone.length > 0 ? { TEST_WITHOUT_ALONE: '1' } : {}) },
  ];
  if (alone.length > 0) {
    process.stdout.write(`\n== files run alone, after the others: ${alone.join(', ')}\n`);
    parts.push({ title: 'files run alone', result: run(alone) });
  }

  const total = { passes: 0, failures: 0, pending: 0 };
  let status = 0;
  for (const { title, result } of parts) {
    if (result.status !== 0) status = 1;
    if (!result.counts) {
      // A run that ended without its closing line (a crash, a signal) counts as a failure.
      process.stdout.write(`${title}: mocha ended without a summary (exit ${result.status}${result.signal ? `, ${result.signal}` : ''})\n`);
      total.failures += 1;
      continue;
    }
    total.passes += result.counts.passes;
    total.failures += result.counts.failures;
    total.pending += result.counts.pending;
  }
  if (total.failures > 0) status = 1;
  process.stdout.write(`\nwhole suite (${parts.map(({ title, result }) => `${title}: ${result.counts ? line(result.counts) : 'no summary'}`).join('; ')}):\n`);
  process.stdout.write(`${line(total)}\n`);
  return status;
}

process.exitCode = main();
