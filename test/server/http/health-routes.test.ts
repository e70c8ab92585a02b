import { expect } from 'chai';
import { openPostgres, type Database } from '../../../src/db/connection/open-database.ts';
import { freePort } from '../../support/free-port.ts';
import { rawRequest } from '../../support/raw-request.ts';
import { testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

describe('probes: /healthz and /readyz', () => {
  // With REDIS_URL, /readyz reports Redis ready once the limiter's connection is: the server starts once it is.
  const server = useServer();

  it('/healthz says the process is alive, without a key', async () => {
    const response = await server.request(`${server.origin}/healthz`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ok' });
    expect(response.headers.get('cache-control')).to.equal('no-store');
  });

  it('/readyz checks the database (and reports Redis), without a key', async () => {
    const response = await server.request(`${server.origin}/readyz`, { key: null });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ status: 'ok', database: 'ready', redis: process.env.REDIS_URL ? 'ready' : 'none' });
  });

  it('answers HEAD like GET, with no body, and other methods with 405', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const head = await rawRequest(server.origin, path, { method: 'HEAD' });
      expect(head.status, path).to.equal(200);
      expect(head.text, path).to.equal('');
      expect(head.headers['cache-control'], path).to.equal('no-store');
      expect((await rawRequest(server.origin, path, { method: 'POST' })).status, path).to.equal(405);
    }
  });
});

describe('probes: a database that does not answer', () => {
  let unreachable: Database;

  before(async () => {
    // Nothing listens on this port: every connection is refused at once (and knex's warnings about it are expected).
    const quiet = { warn: () => undefined, error: () => undefined };
    unreachable = openPostgres({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, poolMax: 1, log: quiet });
  });
  const server = useServer(async () => ({ db: unreachable.db, registry: (await testDatabase()).registry, redisUrl: null }));
  after(() => unreachable.close());

  it('makes /readyz 503 unavailable, while /healthz still says the process is alive', async () => {
    const ready = await server.request(`${server.origin}/readyz`);
    expect(ready.status).to.equal(503);
    expect(ready.body).to.deep.equal({ status: 'unavailable', database: 'down', redis: 'none' });
    expect(ready.headers.get('cache-control')).to.equal('no-store');
    const alive = await server.request(`${server.origin}/healthz`);
    expect(alive.status).to.equal(200);
    expect(alive.body).to.deep.equal({ status: 'ok' });
  });
});

describe('probes: Redis down', () => {
  // A closed port: the limiter counts in process and reports Redis down.
  const server = useServer({ redisUrl: 'redis://127.0.0.1:1' });

  it('keeps /readyz 200, as degraded: the instance serves with in-process rate limits', async () => {
    const ready = await server.request(`${server.origin}/readyz`);
    expect(ready.status).to.equal(200);
    expect(ready.body).to.deep.equal({ status: 'degraded', database: 'ready', redis: 'down' });
  });
});
