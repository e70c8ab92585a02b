import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The tables Platformatic DB serves: the products the cases read, and the two
 * tables products refer to. Platformatic DB 3 fails at start when an included
 * table refers to one left out (sql-openapi reads the relation's target
 * entity, undefined), and with all 100 tables of the schema it takes some 40
 * seconds to start on this machine, against 4 with these three.
 */
export const PLATFORMATIC_TABLES = ['products', 'brands', 'categories'] as const;

/**
 * Platformatic DB's configuration for the comparison, checked against its
 * JSON schema (`@platformatic/db/schema.json`, `db` and `server`):
 * REST only (`graphql: false`, `openapi: true`), no mutation events, no
 * migrations (none configured: nothing to apply, nothing applied at start),
 * no result cache (`cache` is off by default), a pool of `poolSize` (the
 * server's), and a logger at `warn`, as the server's (at `info` it would log
 * every request). The port comes from the `PORT` of the process, through
 * Platformatic's `{PLACEHOLDER}` replacement of environment variables.
 */
export function platformaticConfig({ url, poolSize, version }: { url: string; poolSize: number; version: string }): Record<string, unknown> {
  return {
    $schema: `https://schemas.platformatic.dev/@platformatic/db/${version}.json`,
    server: { hostname: '127.0.0.1', port: '{PORT}', logger: { level: 'warn' } },
    db: {
      connectionString: url,
      poolSize,
      graphql: false,
      openapi: true,
      events: false,
      include: Object.fromEntries(PLATFORMATIC_TABLES.map((table) => [table, true])),
    },
  };
}

/** Writes the configuration as `platformatic.json` in `dir`; its path. */
export async function writePlatformaticConfig({ dir, url, poolSize, version }: { dir: string; url: string; poolSize: number; version: string }): Promise<string> {
  const path = join(dir, 'platformatic.json');
  await writeFile(path, `${JSON.stringify(platformaticConfig({ url, poolSize, version }), null, 2)}\n`);
  return path;
}
