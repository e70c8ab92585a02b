// Mocha settings: TypeScript through tsx, one database per run (root hooks),
// and a closing "N passed, N failed" line that CI reads.
// Mocha adds spec files named on the command line to the configured ones, so
// the whole suite is the default only when none is named: `npx mocha
// test/x.test.ts` runs that file alone.
const named = process.argv.slice(2).some((arg) => /\.test\.ts$|^test\//.test(arg));
module.exports = {
  import: ['tsx'],
  extension: ['ts'],
  spec: named ? [] : ['test/**/*.test.ts'],
  require: ['test/support/root-hooks.ts'],
  reporter: 'test/support/summary-reporter.cjs',
  timeout: 30000,
  forbidOnly: Boolean(process.env.CI),
  exit: true,
};
