// Mocha settings: TypeScript through tsx, one database per test process (root
// hooks and global fixtures), and a closing "N passed, N failed" line that CI
// reads.
//
// Mocha adds spec files named on the command line to the configured ones, so
// the whole suite is the default only when none is named: `npx mocha
// test/x.test.ts` runs that file alone, serially (`.only` works there).
//
// The whole suite (`npx mocha`) runs in parallel: worker processes take one
// file at a time, each with a database of its own kept for all its files
// (test/support/test-database.ts), slowest files first
// (test/support/suite-files.cjs). `npm test` (test/support/run-suite.cjs)
// runs it without the files that must run alone, then those.
const { suiteFiles } = require('./test/support/suite-files.cjs');

const named = process.argv.slice(2).some((arg) => /\.test\.ts$|^test\//.test(arg));

/**
 * Worker processes. Files wait on child processes, servers and timers as much
 * as they use a CPU, so more jobs than the 2 cores pays (measured, see
 * docs/ARCHITECTURE.md). TEST_JOBS overrides it.
 */
const JOBS = Number(process.env.TEST_JOBS) || 4;

module.exports = {
  import: ['tsx'],
  extension: ['ts'],
  spec: named ? [] : suiteFiles({ withoutAlone: process.env.TEST_WITHOUT_ALONE === '1' }),
  parallel: !named,
  ...(named ? {} : { jobs: JOBS }),
  require: ['test/support/run-fixtures.ts', 'test/support/root-hooks.ts'],
  reporter: 'test/support/summary-reporter.cjs',
  timeout: 30000,
  forbidOnly: Boolean(process.env.CI),
  exit: true,
};
