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
// On Postgres the second run comes after the first, the cluster quiet, unless
// TEST_ALONE_DATABASE_URL names a cluster of its own for it (.ci/run makes one:
// test/support/quiet-clusters.ts): then both run at the same time, the second
// on that cluster, its output printed after the first's.
//
// Each run prints its own "N passed, N failed" line; the last line printed is
// the sum of both, the line CI reads. Arguments (`npm test -- --grep x`, or
// files) go to mocha as they are, in one run.
const { spawn } = require('node:child_process');
const { closeSync, mkdtempSync, openSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { ALONE, aloneFiles } = require('./suite-files.cjs');

const ROOT = resolve(__dirname, '../..');
const MOCHA = require.resolve('mocha/bin/mocha.js', { paths: [ROOT] });

/**
 * Runs mocha with `args`, its output on this process's or into the file
 * `output`; resolves with its counts (null if it ended without any) and exit
 * status.
 */
async function run(args, { env = {}, output = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bcat-suite-'));
  const summaryFile = join(dir, 'summary.json');
  const fd = output === null ? null : openSync(output, 'w');
  try {
    const stdio = fd === null ? 'inherit' : ['ignore', fd, fd];
    const child = spawn(process.execPath, [MOCHA, ...args], { cwd: ROOT, stdio, env: { ...process.env, ...env, TEST_SUMMARY_FILE: summaryFile } });
    const result = await new Promise((done) => {
      child.on('error', () => done({ status: 1, signal: null }));
      child.on('exit', (status, signal) => done({ status, signal }));
    });
    let counts = null;
    try {
      counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
    } catch {
      counts = null;
    }
    return { counts, status: result.status ?? 1, signal: result.signal };
  } finally {
    if (fd !== null) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

const line = ({ passes, failures, pending }) => `${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`;

async function main() {
  const given = process.argv.slice(2);
  if (given.length > 0) return (await run(given)).status;

  const existing = aloneFiles();
  const missing = ALONE.filter((file) => !existing.includes(file));
  if (missing.length > 0) {
    process.stderr.write(`test/support/suite-files.cjs lists files to run alone that do not exist: ${missing.join(', ')}\n`);
    return 1;
  }
  const alone = process.env.DATABASE_URL ? existing : [];
  const quietCluster = alone.length > 0 ? process.env.TEST_ALONE_DATABASE_URL || null : null;
  const parts = [];
  if (quietCluster) {
    const dir = mkdtempSync(join(tmpdir(), 'bcat-suite-alone-'));
    const output = join(dir, 'output.txt');
    try {
      const [parallel, apart] = await Promise.all([
        run([], { env: { TEST_WITHOUT_ALONE: '1' } }),
        run(alone, { env: { DATABASE_URL: quietCluster }, output }),
      ]);
      parts.push({ title: 'files run in parallel', result: parallel });
      process.stdout.write(`\n== files run alone, on a cluster of their own (TEST_ALONE_DATABASE_URL), beside the others: ${alone.join(', ')}\n`);
      process.stdout.write(readFileSync(output, 'utf8'));
      parts.push({ title: 'files run alone', result: apart });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    parts.push({ title: 'files run in parallel', result: await run([], { env: alone.length > 0 ? { TEST_WITHOUT_ALONE: '1' } : {} }) });
    if (alone.length > 0) {
      process.stdout.write(`\n== files run alone, after the others: ${alone.join(', ')}\n`);
      parts.push({ title: 'files run alone', result: await run(alone) });
    }
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

main().then((status) => {
  process.exitCode = status;
});
