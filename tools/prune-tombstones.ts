/**
 * `npm run db:prune-tombstones`: deletes the changes feed's tombstones older
 * than SYNC_RETENTION_DAYS (default 30) in DATABASE_URL (or the embedded
 * database). A running server does the same every hour; this is for a
 * schedule of one's own, or a database no server watches. The command itself
 * is tools/prune/prune-command.ts.
 */
import { runTool } from './shared/open-tool-connection.ts';
import { runPruneCommand } from './prune/prune-command.ts';

await runTool(({ database }) => runPruneCommand({ db: database.db, env: process.env, out: (text) => process.stdout.write(text) }));
