/**
 * The server process (`src/server/main.ts`) started while its Postgres is
 * down. It does not wait: it stops at once with a clear message and exit code
 * 1, so a supervisor restarts it; once Postgres is back, the same command
 * serves. A Postgres that accepts connections but never answers stops it too,
 * within the 5 s connect limit.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { POSTGRES_TIMEOUTS } from '../../src/db/connection/open-database.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { freePort } from '../support/free-port.ts';
import { BRAND, CARTON_SIZES, catalogCluster, PROCESS_CURSOR_SECRET, timedGet, withTimeout } from './fault-support.ts';
import { spawnServer } from '../support/server-process.ts';
import { LocalPostgres } from './local-postgres.ts';

/** Loading tsx and the registry takes a few seconds before the database is even tried. */
const START_MS = 20_000;

describe('faults: Postgres is down when the server process starts', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;
  let key: string;

  before(async () => {
    ({ cluster, key } = await catalogCluster());
  });
  after(async () => {
    await cluster?.destroy();
  });

  const env = (databaseUrl: string): Record<string, string> => ({ DATABASE_URL: databaseUrl, CURSOR_SECRET: PROCESS_CURSOR_SECRET });

  it('refuses to start with a clear message and exit code 1 while Postgres is stopped or silent, and starts once it is back', async () => {
    await cluster.stop({ mode: 'fast' });
    let hungMessage = '';
    // And a port that accepts TCP connections and says nothing: a hung Postgres, or one behind a broken proxy.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    const silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    // Both at once: each start costs seconds of loading before the database is tried.
    const spawnedAt = performance.now();
    const stopped = spawnServer({ env: env(cluster.url) });
    const hung = spawnServer({ env: env(`postgres://postgres@127.0.0.1:${silentPort}/postgres`) });
    try {
      const [stoppedExit, hungExit] = await Promise.all([
        withTimeout(stopped.exited, START_MS, 'the server to give up on a stopped Postgres'),
        withTimeout(hung.exited, START_MS + POSTGRES_TIMEOUTS.connectMs, 'the server to give up on a silent Postgres'),
      ]);

      expect(stoppedExit.code, `exit code (signal ${stoppedExit.signal}); stderr:\n${stopped.stderr()}`).to.equal(1);
      expect(stopped.stderr()).to.match(new RegExp(`^Could not start: cannot read the schema at DATABASE_URL: connect ECONNREFUSED 127\\.0\\.0\\.1:${cluster.port}\\n$`, 'm'));
      expect(stopped.stderr(), 'no stack trace for an expected failure').not.to.match(/\n\s+at /);
      expect(stopped.stderr(), 'it never listened').not.to.match(/Brand Catalog Read API on/);

      expect(hungExit.code, `exit code (signal ${hungExit.signal}); stderr:\n${hung.stderr()}`).to.equal(1);
      expect(hung.stderr()).to.match(/^Could not start: cannot read the schema at DATABASE_URL: .*(timeout|timed out)/im);
      hungMessage = /^Could not start: .*$/m.exec(hung.stderr())?.[0] ?? '';
      expect(sockets.size, 'it did try to connect').to.be.at.least(1);
      const hungMs = hungExit.at - spawnedAt;
      expect(hungMs, 'it gave up after the connect limit, not before').to.be.above(POSTGRES_TIMEOUTS.connectMs - 500);
      expect(hungMs, 'it gave up after the connect limit, not much later').to.be.below(START_MS);
    } finally {
      await Promise.all([stopped.dispose(), hung.dispose()]);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }

    await cluster.start();
    const server = await spawnServer({ env: env(cluster.url) }).started;
    try {
      const response = await timedGet(`${server.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`, { key });
      expect(response.status).to.equal(200);
      expect(response.body.totalItems).to.equal(CARTON_SIZES);
    } finally {
      await server.dispose();
    }

    // Last, so that everything above is checked whatever this says: the message for a silent Postgres must name
    // the database not answering, not send the operator after a pool leak (knex's "The pool is probably full").
    expect(hungMessage, 'the message for a Postgres that never answers').not.to.match(/pool is probably full|transacting/i);
  });
});
