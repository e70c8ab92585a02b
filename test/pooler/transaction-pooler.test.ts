/**
 * The service behind a transaction-mode pooler (CONTRACT.md §5,
 * DATABASE_POOLER=transaction), wired as main.ts wires it (openServices,
 * createApp) on the run's Postgres through a PgBouncer of this file's own:
 * reads, the feed and keys go through the pooler, no session state is asked
 * of it (PgBouncer refuses the `statement_timeout` startup parameter, so a
 * connection that sent it would fail), and key revocations reach the
 * instance by polling without DATABASE_SESSION_URL, and by LISTEN on that
 * session connection with it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { createApp } from '../../src/server/app.ts';
import { createHttpServer } from '../../src/server/http-server.ts';
import { openServices, type Services } from '../../src/server/open-services.ts';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { revokeKey } from '../../src/server/auth/key-admin.ts';
import { postgresPool } from '../../src/db/connection/postgres-pool.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { createBrand, createTestKey, insert, nextTimestamp, resetToBrand } from '../support/fixtures.ts';
import { compileRegistry } from '../../src/engine/compile/compile-registry.ts';
import { getRecord } from '../../src/engine/read/read-records.ts';
import { createDatabaseReads } from '../../src/db/database-reads.ts';
import { startPgBouncer, type LocalPgBouncer } from '../support/local-pgbouncer.ts';
import { requestAt, TEST_CURSOR_SECRET, type TestServer } from '../support/test-server.ts';
import { testDatabase } from '../support/test-database.ts';
import { waitFor } from '../support/wait-for.ts';

/** A server as main.ts makes one, from settings. */
interface PooledServer {
  readonly request: TestServer['request'];
  readonly services: Services;
  readonly logs: Record<string, unknown>[];
  close(): Promise<void>;
}

async function startPooledServer(env: Record<string, string>): Promise<PooledServer> {
  const config: Config = loadConfig({ CURSOR_SECRET: TEST_CURSOR_SECRET, KEY_CACHE_SECONDS: '30', ...env });
  const { logger, lines } = collectingLogger();
  const services = await openServices({ config, logger });
  await services.readiness.whenReady;
  const { registry } = await testDatabase();
  const app = createApp({ registry, db: services.connection.database.db, limiter: services.limiter, cursors: createCursorCodec(services.connection.cursorSecrets), logger, trustProxy: false, keyCache: services.keyCache, keyUsage: services.keyUsage, reads: services.reads, readiness: services.readiness, syncRetentionDays: config.syncRetentionDays, corsOrigins: config.corsOrigins });
  const server: Server = createHttpServer({ app, logger });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    request: requestAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    services,
    logs: lines,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await services.release();
    },
  };
}

// A pooler needs a Postgres server to stand in front of: the Postgres run only.
if (process.env.DATABASE_URL) describe('behind a transaction pooler (DATABASE_POOLER=transaction)', function () {
  this.timeout(60_000);
  let bouncer: LocalPgBouncer;
  let database: string;
  let directUrl: string;

  before(async () => {
    const { url } = await testDatabase();
    directUrl = url!;
    database = new URL(directUrl).pathname.slice(1);
    bouncer = await startPgBouncer({ postgresUrl: directUrl });
  });
  after(async () => {
    await bouncer?.stop();
  });

  it('serves lists, gets and the changes feed through the pooler, with no startup parameter', async () => {
    const { brand, key } = await resetToBrand('acme');
    const [small] = await insert('carton-sizes', brand.id, [{ name: 'Small', createdAt: nextTimestamp() }]);
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction' });
    try {
      const settings = postgresPool(server.services.connection.database.db)!.options;
      expect(settings).to.include.keys('connectionString', 'query_timeout');
      expect(settings).to.not.have.any.keys('statement_timeout', 'application_name');
      const before = await bouncer.queries(database);
      const list = await server.request('/brands/acme/carton-sizes?limit=2', { key });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.items.map((item: { id: string }) => item.id)).to.deep.equal([small!.id]);
      const one = await server.request(`/brands/acme/carton-sizes/${small!.id}`, { key });
      expect([one.status, one.body.name]).to.deep.equal([200, 'Small']);
      const feed = await server.request('/brands/acme/carton-sizes/changes', { key });
      expect(feed.status, feed.text).to.equal(200);
      expect(feed.body.items.map((item: { id: string }) => item.id)).to.deep.equal([small!.id]);
      expect(feed.body.syncToken).to.be.a('string');
      expect(await bouncer.queries(database), 'the queries went through the pooler').to.be.above(before);
    } finally {
      await server.close();
    }
  });

  it('shares one statement among the includes of requests arriving together through the pooler, each request getting what it gets alone', async () => {
    const { brand: acme } = await resetToBrand('acme');
    const globex = await createBrand('globex');
    const products = [...await insert('products', acme.id, [{ name: 'A1' }, { name: 'A2' }]), ...await insert('products', globex.id, [{ name: 'G1' }])];
    for (const product of products) await insert('skus', product.id === products[2]!.id ? globex.id : acme.id, [{ productId: product.id, code: `${product.name}-S` }, { productId: product.id, code: `${product.name}-M` }]);
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction' });
    const { registry } = await testDatabase();
    const families = compileRegistry(registry);
    const family = families.get('products')!;
    const includes = family.resource.includes.filter((include) => include.name === 'skus');
    const { db } = server.services.connection.database;
    // The reads as createApp opens them on the pooled replicas.
    const reads = createDatabaseReads(server.services.reads);
    const sent: string[] = [];
    const listen = (query: { sql: string }): void => void sent.push(query.sql);
    db.on('query', listen);
    try {
      const asks = [acme.id, globex.id].flatMap((brandId) => products.map((product) => ({ brandId, values: [product.id as string, products[0]!.id as string] })));
      const { queries } = families.get('skus')!;
      // As records (batched rows carry the batch's columns, which records leave behind).
      const read = ({ brandId, values }: { brandId: string; values: string[] }) =>
        reads.run(async (session) => queries.decode(await session.rows(queries.matching({ brandId, field: 'productId', values, limit: 2 }))));
      const alone = [];
      for (const ask of asks) alone.push(await read(ask));
      sent.length = 0;
      expect(await Promise.all(asks.map(read))).to.deep.equal(alone);
      expect(sent.filter((sql) => sql.includes('cross join lateral')), 'one statement for the five after the first').to.have.length(1);
      const gets = await Promise.all(products.map((product) => reads.run((session) => getRecord({ session, families, brandId: acme.id, family, id: product.id as string, includes }))));
      expect(gets.map((got) => (got?.skus as { code: string }[] | undefined)?.map((sku) => sku.code) ?? null)).to.deep.equal([['A1-S', 'A1-M'], ['A2-S', 'A2-M'], null]);
    } finally {
      db.off('query', listen);
      await server.close();
    }
  });

  it('records the last use of a key through the pooler, once for many requests', async () => {
    const { brand } = await resetToBrand('acme');
    await insert('carton-sizes', brand.id, [{ name: 'Small', createdAt: nextTimestamp() }]);
    const { id, key } = await createTestKey({ brands: ['acme'] });
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction' });
    try {
      for (let i = 0; i < 5; i++) expect((await server.request('/brands/acme/carton-sizes', { key })).status).to.equal(200);
      await server.services.keyUsage.flush();
      const [row] = (await (await testDatabase()).db('api_keys').where({ id }).select('last_used_at')) as { last_used_at: Date | null }[];
      expect(row!.last_used_at, 'written through the pooler').to.not.equal(null);
      expect(Date.now() - new Date(row!.last_used_at!).getTime()).to.be.within(0, 120_000);
    } finally {
      await server.close();
    }
  });

  it('without DATABASE_SESSION_URL, polls for revocations: a revoked key is refused within about a second', async () => {
    const { brand } = await resetToBrand('acme');
    const { db } = await testDatabase();
    await insert('carton-sizes', brand.id, [{ name: 'Small', createdAt: nextTimestamp() }]);
    const { id, key } = await createTestKey({ brands: ['acme'] });
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction' });
    try {
      expect(server.logs.some((line) => /revocations are polled/.test(String(line.msg)))).to.equal(true);
      // The key cache is on once the first poll has read the revocations: the grant is cached, then revoked.
      await waitFor(async () => (await server.request('/brands/acme/carton-sizes', { key })).status === 200 && server.services.keyCache.size > 0, { timeoutMs: 5_000, intervalMs: 50, what: 'a cached grant' });
      await revokeKey(db, id);
      const revokedAt = Date.now();
      await waitFor(async () => (await server.request('/brands/acme/carton-sizes', { key })).status === 401, { timeoutMs: 5_000, intervalMs: 50, what: 'the revoked key refused' });
      expect(Date.now() - revokedAt, 'within the poll interval and a margin').to.be.below(3_000);
    } finally {
      await server.close();
    }
  });

  it('with DATABASE_SESSION_URL, listens there: a revoked key is refused at once', async () => {
    const { brand } = await resetToBrand('acme');
    const { db } = await testDatabase();
    await insert('carton-sizes', brand.id, [{ name: 'Small', createdAt: nextTimestamp() }]);
    const { id, key } = await createTestKey({ brands: ['acme'] });
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction', DATABASE_SESSION_URL: directUrl });
    try {
      await waitFor(async () => (await server.request('/brands/acme/carton-sizes', { key })).status === 200 && server.services.keyCache.size > 0, { timeoutMs: 5_000, intervalMs: 50, what: 'a cached grant' });
      await revokeKey(db, id);
      await waitFor(async () => (await server.request('/brands/acme/carton-sizes', { key })).status === 401, { timeoutMs: 1_000, intervalMs: 20, what: 'the revoked key refused by the LISTEN notice' });
      expect(server.logs.some((line) => /revocations are polled/.test(String(line.msg)))).to.equal(false);
    } finally {
      await server.close();
    }
  });

  it('refreshes the key cache\'s grants in use in one statement through the pooler', async () => {
    const { brand, key } = await resetToBrand('acme');
    await insert('carton-sizes', brand.id, [{ name: 'Small', createdAt: nextTimestamp() }]);
    const server = await startPooledServer({ DATABASE_URL: bouncer.url(database), DATABASE_POOLER: 'transaction', KEY_CACHE_SECONDS: '1' });
    const outcomes: string[] = [];
    const isRefresh = (query: { sql: string }): boolean => query.sql.includes('with ordinality') && query.sql.includes('api_keys');
    const db = server.services.connection.database.db;
    db.on('query-response', (_response: unknown, query: { sql: string }) => void (isRefresh(query) && outcomes.push('answered')));
    db.on('query-error', (error: Error, query: { sql: string }) => void (isRefresh(query) && outcomes.push(error.message)));
    try {
      await waitFor(async () => (await server.request('/brands/acme/carton-sizes', { key })).status === 200 && outcomes.length > 0, { timeoutMs: 10_000, intervalMs: 50, what: 'a refresh round' });
      expect(outcomes[0]).to.equal('answered');
      expect(server.logs.filter((line) => /cannot be refreshed/.test(String(line.msg)))).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });
});
