// Mocha's spec reporter, plus the plain closing line CI looks for: "N passed, N failed".
// In parallel mode it runs in the main process, on the events the workers send back.
// With TEST_SUMMARY_FILE set it also writes the counts there as JSON, for
// test/support/run-suite.cjs to add up the parts of `npm test`.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats;
      if (process.env.TEST_SUMMARY_FILE) writeFileSync(process.env.TEST_SUMMARY_FILE, JSON.stringify({ passes, failures, pending }));
      process.stdout.write(`${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
