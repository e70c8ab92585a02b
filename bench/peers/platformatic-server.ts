/**
 * Platformatic DB as a process of its own, for `npm run bench:platformatic`
 * (spawned like the floor, so its CPU and memory are measured like the
 * server's): `PLATFORMATIC_DB`, the path of `@platformatic/db`'s main module
 * in the tools folder (it is not a dependency of the project);
 * `PLATFORMATIC_CONFIG`, its configuration file; `PORT`, which the file takes
 * as `{PORT}`. It prints `listening <url>` on stdout.
 *
 * It runs Platformatic DB's capability (`create` from `@platformatic/db`) on
 * the main thread of this one process, without the Watt runtime that
 * `wattpm start` puts around it (a worker thread, the runtime's management
 * and metrics): the least Platformatic DB does to answer, so its best case.
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Capability {
  updateContext(context: { serverConfig: { hostname: string } }): Promise<void>;
  start(options: { listen: boolean }): Promise<string>;
  stop(): Promise<void>;
}

interface PlatformaticDb {
  create(root: string, source: string, context: { isEntrypoint: boolean; isProduction: boolean }): Promise<Capability>;
}

const entry = process.env.PLATFORMATIC_DB;
const config = process.env.PLATFORMATIC_CONFIG;
if (!entry || !config) {
  process.stderr.write('platformatic: PLATFORMATIC_DB and PLATFORMATIC_CONFIG are required\n');
  process.exit(2);
}
const { create } = (await import(pathToFileURL(entry).href)) as PlatformaticDb;
// isEntrypoint: it listens on the configured hostname, as the application a runtime exposes does; isProduction: no file watching, no type generation.
const app = await create(dirname(config), config, { isEntrypoint: true, isProduction: true });
// Platformatic sets the hostname to 0.0.0.0 when it finds itself in a container (`transform` of @platformatic/service): the bench serves on loopback only.
await app.updateContext({ serverConfig: { hostname: '127.0.0.1' } });
const url = await app.start({ listen: true });
process.stdout.write(`listening ${url}\n`);
process.once('SIGTERM', () => {
  app.stop().then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`platformatic: stop failed: ${String(error)}\n`);
    process.exit(1);
  });
});
