import { expect } from 'chai';
import type { Knex } from 'knex';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createKeyCache } from '../../../src/server/auth/key-cache.ts';
import { watchKeyRevocations } from '../../../src/server/auth/key-revocations.ts';
import { createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { startTestServer } from '../../support/test-server.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';

/** The key lookups `body` sent to the database. */
async function keyLookups(db: Knex, body: () => Promise<void>): Promise<number> {
  let lookups = 0;
  const listen = (query: { sql: string }): void => {
    if (query.sql.includes('from api_keys k')) lookups += 1;
  };
  db.on('query', listen);
  try {
    await body();
  } finally {
    db.off('query', listen);
  }
  return lookups;
}

describe('key cache', () => {
  let db: Knex;
  let key: string;
  let keyId: string;

  beforeEach(async () => {
    ({ db } = await testDatabase());
    ({ key, keyId } = await resetToBrand());
  });

  it('answers a known key and brand from memory after the first lookup, until its TTL', async () => {
    let clock = 1_000_000;
    const cache = createKeyCache({ ttlMs: 10_000, now: () => clock });
    const lookups = await keyLookups(db, async () => {
      const first = await cache.lookup(db, { key, brandSlug: 'acme' });
      const second = await cache.lookup(db, { key, brandSlug: 'acme' });
      expect(second).to.deep.equal(first);
      expect(first).to.include({ keyId, allowed: true });
    });
    expect(lookups).to.equal(1);
    clock += 10_001;
    expect(await keyLookups(db, async () => void (await cache.lookup(db, { key, brandSlug: 'acme' })))).to.equal(1);
  });

  it('never caches a failed lookup or a slug of no brand', async () => {
    const cache = createKeyCache({ ttlMs: 10_000 });
    const unknown = `bcat_sk_${'A'.repeat(40)}000000`;
    const lookups = await keyLookups(db, async () => {
      for (let i = 0; i < 2; i += 1) {
        expect(await cache.lookup(db, { key: unknown, brandSlug: 'acme' })).to.equal(null);
        expect((await cache.lookup(db, { key, brandSlug: 'nobody' }))!.brand).to.equal(null);
      }
    });
    expect(lookups).to.equal(4);
    expect(cache.size).to.equal(0);
  });

  it('does not use a grant past its key\'s expiry', async () => {
    const expiring = await createTestKey({ brands: ['acme'], expiresAt: new Date(Date.now() + 60_000) });
    let clock = Date.now();
    const cache = createKeyCache({ ttlMs: 3_600_000, now: () => clock });
    expect(await cache.lookup(db, { key: expiring.key, brandSlug: 'acme' })).to.not.equal(null);
    clock += 61_000;
    // Past the expiry the cache asks the database again (whose clock decides; here it still is live).
    expect(await keyLookups(db, async () => void (await cache.lookup(db, { key: expiring.key, brandSlug: 'acme' })))).to.equal(1);
  });

  it('forgets a key at once, and a lookup that raced a revocation does not store its stale answer', async () => {
    const cache = createKeyCache({ ttlMs: 60_000 });
    await cache.lookup(db, { key, brandSlug: 'acme' });
    expect(cache.size).to.equal(1);
    cache.forgetKey(keyId);
    expect(cache.size).to.equal(0);
    const racing = cache.lookup(db, { key, brandSlug: 'acme' });
    cache.forgetKey(keyId);
    await racing;
    expect(cache.size).to.equal(0);
  });

  it('asks the database every time while turned off', async () => {
    const cache = createKeyCache({ ttlMs: 60_000 });
    cache.setEnabled(false);
    const lookups = await keyLookups(db, async () => {
      await cache.lookup(db, { key, brandSlug: 'acme' });
      await cache.lookup(db, { key, brandSlug: 'acme' });
    });
    expect(lookups).to.equal(2);
  });

  // On Postgres only: the embedded database serves one process, which revokes nothing while it serves.
  if (process.env.DATABASE_URL) describe('with revocation notices (Postgres LISTEN)', () => {
    it('drops a revoked key on a serving app at once: the next request is 401', async () => {
      const database = await testDatabase();
      const { logger } = collectingLogger();
      const cache = createKeyCache({ ttlMs: 60_000 });
      const watcher = watchKeyRevocations({ url: database.url!, cache, logger });
      const server = await startTestServer({ keyCache: cache });
      try {
        const get = () => server.request('/brands/acme/carton-sizes', { key });
        // Wait (bounded) until the listener is up and the cache holds the key.
        for (let i = 0; i < 50 && cache.size === 0; i += 1) {
          expect((await get()).status).to.equal(200);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(cache.size).to.equal(1);
        expect(await keyLookups(db, async () => void expect((await get()).status).to.equal(200))).to.equal(0);
        await revokeKey(db, keyId);
        // The notice travels over its own connection: allow it a moment, bounded.
        for (let i = 0; i < 20 && cache.size > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(cache.size).to.equal(0);
        expect((await get()).status).to.equal(401);
      } finally {
        await server.close();
        await watcher.stop();
      }
    });
  });
});
