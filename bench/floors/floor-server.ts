/**
 * The floor as a process of its own (spawned by the bench, so its memory is
 * measured like the server's): `DATABASE_URL`, `PORT`, `DATABASE_POOL_MAX`
 * (the server's default when unset), and `FLOOR_PREPARED=1` for the floor
 * that prepares its statements. It prints `listening <port>` on stdout.
 */
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { compileRegistry } from '../../src/engine/compile/compile-registry.ts';
import { loadRegistry } from '../../src/engine/definition/registry.ts';
import { DEFAULTS } from '../../src/server/config.ts';
import { createFloorApp } from './floor-app.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('floor: DATABASE_URL is required\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX || DEFAULTS.databasePoolMax) });
// An idle client's error (Postgres restarting) must not kill the process; the next query reports it.
pool.on('error', (error) => process.stderr.write(`floor: idle client error: ${error.message}\n`));
const app = createFloorApp({ pool, families: compileRegistry(await loadRegistry()), prepared: process.env.FLOOR_PREPARED === '1' });
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeIdleConnections();
});
