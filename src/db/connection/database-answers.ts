import type { Knex } from 'knex';

/**
 * Whether a database answers `select 1` within `timeoutMs`: for readiness
 * probes and replica probes, which must never hang on a database that
 * accepts connections but does not answer.
 */
export async function databaseAnswers(db: Knex, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([db.raw('select 1').then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
