import type { Knex } from 'knex';
import { pruneTombstones } from '../../src/db/prune-tombstones.ts';
import { loadConfig } from '../../src/server/config.ts';

/**
 * `npm run db:prune-tombstones`, apart from its process: the retention read
 * from the environment (a bad SYNC_RETENTION_DAYS throws its reason before
 * anything is deleted), the tombstones pruned, one line said. The process
 * around it is tools/prune-tombstones.ts; tests run it in process.
 */
export async function runPruneCommand({ db, env, out }: { db: Knex; env: NodeJS.ProcessEnv; out: (text: string) => void }): Promise<number> {
  const retentionDays = loadConfig(env).syncRetentionDays;
  const pruned = await pruneTombstones({ db, retentionDays });
  out(`Pruned ${pruned} tombstones older than ${retentionDays} days.\n`);
  return 0;
}
