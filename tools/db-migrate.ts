/** `npm run db:migrate`: brings DATABASE_URL (or the embedded database) to the latest schema. */
import { migrateToLatest } from '../src/db/schema/migrate-to-latest.ts';
import { runTool } from './shared/open-tool-connection.ts';

await runTool(async ({ database }) => {
  // The embedded database is migrated on open; this reports it all the same.
  const ran = await migrateToLatest(database.db);
  process.stdout.write(ran.length === 0 ? 'The schema is up to date.\n' : `Ran ${ran.length} migrations:\n${ran.map((m) => `  ${m}`).join('\n')}\n`);
  return 0;
});
