/**
 * `npm run db:prune-tombstones`: deletes the changes feed's tombstones older
 * than SYNC_RETENTION_DAYS (default 30) in DATABASE_URL (or the embedded
 * database). A running server does the same every hour; this is for a
 * schedule of one's own, or a database no server watches.
 */
import { pruneTombstones } from '../src/db/prune-tombstones.ts';
import { loadConfig } from '../src/server/config.ts';
import { runTool } from './shared/open-tool-connection.ts';

await runTool(async ({ database }) => {
  const retentionDays = loadConfig().syncRetentionDays;
  const pruned = await pruneTombstones({ db: database.db, retentionDays });
  process.stdout.write(`Pruned ${pruned} tombstones older than ${retentionDays} days.\n`);
  return 0;
});
