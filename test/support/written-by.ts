import { testDatabase } from './test-database.ts';

/**
 * Runs one statement in a transaction of its own on the run's database,
 * committed (or rolled back with `rollback`), and gives that transaction's
 * id: what a test needs to make a snapshot by hand that saw it, or saw it
 * in progress (`<id>:<id + 1>:<id>`).
 */
export async function writtenBy(statement: string, bindings: readonly unknown[] = [], { rollback = false } = {}): Promise<bigint> {
  const { db } = await testDatabase();
  let id = 0n;
  const undo = new Error('rolled back on purpose');
  await db.transaction(async (trx) => {
    await trx.raw(statement, bindings as never[]);
    id = BigInt(((await trx.raw('select pg_current_xact_id()::text as x')) as { rows: { x: string }[] }).rows[0]!.x);
    if (rollback) throw undo;
  }).catch((error: unknown) => {
    if (error !== undo) throw error;
  });
  return id;
}
