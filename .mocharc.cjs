// Mocha settings: TypeScript through tsx, one database per run (root hooks),
// and a closing "N passed, N failed" line that CI reads.
module.exports = {
  import: ['tsx'],
  spec: ['test/**/*.test.ts'],
  require: ['test/support/root-hooks.ts'],
  reporter: 'test/support/summary-reporter.cjs',
  timeout: 30000,
  forbidOnly: Boolean(process.env.CI),
  exit: true,
};
