import type { Knex } from 'knex';

/**
 * The WAL position of the data a copy serves: a replica's replayed one, or
 * on the primary the insert position, past every commit a query can see (the
 * write position may still be short of commits made with
 * `synchronous_commit = off`). coalesce evaluates its second argument only
 * on the primary, where the first is null.
 */
const WAL_POSITION_SQL = 'select coalesce(pg_last_wal_replay_lsn(), pg_current_wal_insert_lsn())::text as lsn';

/** `16/B374D848` as a number, or null when it is not an LSN. */
export function parseLsn(text: string | null): bigint | null {
  const match = text === null ? null : /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  return match ? (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`) : null;
}

/** How new the data `db` serves is, as Postgres writes it (`16/B374D848`). */
export async function walPosition(db: Knex): Promise<string | null> {
  const result = (await db.raw(WAL_POSITION_SQL)) as { rows: { lsn: string | null }[] };
  return result.rows[0]?.lsn ?? null;
}
