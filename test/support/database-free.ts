/**
 * `describe` for tests that never touch the run's database or Redis: they
 * start what they need themselves (an embedded data folder, a throwaway
 * Postgres cluster or Redis, a process that stops before any database) or
 * need none. Both runs of CI would run the very same code with them, so the
 * Postgres run leaves them out (`.ci/run` sets TEST_WITHOUT_DATABASE_FREE=1
 * there) and the embedded run has them; a plain `npm test` runs them, on
 * either database.
 *
 * A block belongs here only if nothing in it calls `testDatabase()`,
 * `resetDatabase()`, `resetToBrand()` or `resetToBrands()`, starts a test
 * server on the run's database (`startTestServer()` or `useServer()`
 * without `db`), or reads DATABASE_URL or
 * REDIS_URL: such a test checks the run's database and must run on both.
 *
 * Used as `describeDatabaseFree?.('...', () => { ... })`.
 */
export const describeDatabaseFree = describeUnless('TEST_WITHOUT_DATABASE_FREE');

/**
 * `describe` for tests that use the run's database but whose subject it is
 * not: a tool run as a user runs it, a guide's samples, the client package,
 * the served document. What they prove holds on either database (the same
 * code above the same SQL), so CI runs them once: the Postgres run leaves them
 * out (`.ci/run` sets TEST_WITHOUT_DATABASE_AGNOSTIC=1 there) and the embedded
 * run, on Node 24, has them; a plain `npm test` runs them, on either database.
 *
 * A block belongs here only if no assertion in it depends on which database
 * answers: a test of SQL, of values as a database stores and renders them, of
 * plans, counts, locks, the feed's snapshots or a failure of the database
 * checks the run's database and must run on both.
 *
 * Used as `describeDatabaseAgnostic?.('...', () => { ... })`.
 */
export const describeDatabaseAgnostic = describeUnless('TEST_WITHOUT_DATABASE_AGNOSTIC');

type Describe = (title: string, define: (this: Mocha.Suite) => void) => Mocha.Suite;

/** `describe`, or null when the variable `name` is 1 (the block is left out of that run). */
function describeUnless(name: string): Describe | null {
  if (process.env[name] === '1') return null;
  // The global `describe` of the file being loaded, looked up at the call: a worker loads this module once, and
  // mocha gives each test file a `describe` of its own (one captured here would add later files' tests to the first).
  return (title, define) => describe(title, define);
}
