import type pg from 'pg';

/**
 * How long a run waits for the database to go quiet. A side that fell behind
 * (a floor counting 200,000 rows for 256 connections) goes on answering the
 * requests it had queued long after its run ended, on the same Postgres: the
 * next run, of another side, would be measured against that backlog. Tens of
 * seconds are seen after such runs; a quiet database answers at once.
 */
export const IDLE_TIMEOUT_MS = 60_000;

/**
 * Waits until no other session runs a statement in this database (or
 * `timeoutMs` passes): a run must not start while the queries the previous
 * run left queued are still using the database's CPU. Sessions of
 * `application_name` in `ignore` (a write load that runs on purpose) do not
 * count. Resolves whether it went quiet in time.
 */
export async function waitUntilIdle({ client, timeoutMs = IDLE_TIMEOUT_MS, pollMs = 50, ignore = [] }: {
  client: pg.Client;
  timeoutMs?: number;
  pollMs?: number;
  ignore?: readonly string[];
}): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await client.query(
      `select count(*)::int as "active" from pg_stat_activity
        where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and application_name <> all($1::text[])`,
      [[...ignore]],
    );
    if ((result.rows[0] as { active: number }).active === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
