/** `npm run db:seed`: loads the demo data set (Northwind, plus Southpeak for isolation) once. */
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { DEMO_BRAND, seedDemo } from '../src/seed/demo-seed.ts';
import { runTool } from './shared/open-tool-connection.ts';

await runTool(async ({ database }) => {
  const loaded = await seedDemo({ db: database.db, registry: await loadRegistry() });
  process.stdout.write(loaded
    ? `Loaded the demo data. Create a key with: npm run keys -- create --brand ${DEMO_BRAND.slug}\n`
    : `The demo brand '${DEMO_BRAND.slug}' exists already; nothing loaded.\n`);
  return 0;
});
