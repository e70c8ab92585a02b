import type pg from 'pg';

/**
 * Waits until no other session runs a statement in this database (or
 * `timeoutMs` passes): a run must not start while the queries the previous
 * run left queued are still using the database's CPU.
 */
export async function waitUntilIdle({ client, timeoutMs = 3000, pollMs = 50 }: { client: pg.Client; timeoutMs?: number; pollMs?: number }): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await client.query(
      `select count(*)::int as "active" from pg_stat_activity
        where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
    if ((result.rows[0] as { active: number }).active === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
