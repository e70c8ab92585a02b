// Which test files the whole suite runs, in which order, and which run alone.
// Read by .mocharc.cjs and test/support/run-suite.cjs.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The longest files (measured alone and in parallel runs, embedded and
 * Postgres), handed to the workers first so that none starts late and runs on
 * alone at the end; the rest follow in path order. A file missing here only
 * costs time, never a test.
 */
const SLOWEST_FIRST = [
  'test/isolation/isolation.test.ts',
  'test/registry/every-family.test.ts',
  'test/bench/measure/run-benchmark.test.ts',
  'test/tools/keys.test.ts',
  'test/faults/restart-after-kill.test.ts',
  'test/cluster/changes-through-replica.test.ts',
  'test/cluster/multi-node.test.ts',
  'test/db/connection/connect.test.ts',
  'test/cluster/changes-through-subscription.test.ts',
  'test/fuzz/cursors.test.ts',
  'test/fuzz/list-queries.test.ts',
  'test/docs/responses-match-document.test.ts',
  'test/registry/stored-values.test.ts',
  'test/tools/soak.test.ts',
  'test/faults/postgres-down.test.ts',
  'test/faults/failover.test.ts',
  'test/faults/slow-query.test.ts',
  'test/db/query/query-plans.test.ts',
  'test/db/connection/open-database.test.ts',
  'test/db/schema/migrate-to-latest.test.ts',
  'test/docs/openapi-document.test.ts',
  'test/faults/postgres-down-at-start.test.ts',
  'test/faults/redis.test.ts',
  'test/tools/export.test.ts',
  'test/fuzz/paths.test.ts',
  'test/fuzz/brand-slugs.test.ts',
  'test/fuzz/record-ids.test.ts',
  'test/resources/pagination.test.ts',
  'test/resources/option-values.test.ts',
];

/**
 * Files that must not run beside other test processes, run by `npm test`
 * after the parallel part, one process, one file after the other. On Postgres
 * their assertions hold only while no other transaction runs in the cluster,
 * and every worker's database is in the same cluster:
 * - total-items and database-reads check that a count is reused while
 *   `pg_current_snapshot()` stays the same; any commit anywhere changes it
 *   (beside other workers "counts for 5 first pages" came out above 2);
 * - changes-route checks that each change comes exactly once; a transaction
 *   open anywhere holds the snapshot's xmin back, and the feed then gives
 *   recent changes again (beside other workers 4 of its tests got repeats).
 * - the live changes' tests wait for a batch to be empty and held: beside a
 *   transaction open elsewhere a batch repeats recent changes and is answered
 *   at once (CONTRACT.md §7), so a follower loops instead of waiting.
 */
const ALONE = [
  'test/resources/total-items.test.ts',
  'test/db/database-reads.test.ts',
  'test/server/http/changes-route.test.ts',
  'test/server/live/live-changes.test.ts',
  'test/server/live/live-changes-model.test.ts',
  'test/client/follow-changes.test.ts',
  'test/tools/export/follow-export.test.ts',
  'test/docs/syncing-guide.test.ts',
];

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file under test/, slowest first; without those that run alone when `withoutAlone`. */
function suiteFiles({ withoutAlone = false } = {}) {
  const rank = (file) => {
    const i = SLOWEST_FIRST.indexOf(file);
    return i === -1 ? SLOWEST_FIRST.length : i;
  };
  return testFiles('test')
    .filter((file) => !(withoutAlone && ALONE.includes(file)))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The files of ALONE that exist (a renamed one is reported by the runner, not skipped silently). */
function aloneFiles() {
  const all = new Set(testFiles('test'));
  return ALONE.filter((file) => all.has(file));
}

module.exports = { SLOWEST_FIRST, ALONE, suiteFiles, aloneFiles };
