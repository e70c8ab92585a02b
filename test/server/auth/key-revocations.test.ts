import { expect } from 'chai';
import type { Knex } from 'knex';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createKeyCache } from '../../../src/server/auth/key-cache.ts';
import { watchKeyRevocations } from '../../../src/server/auth/key-revocations.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { resetToBrand } from '../../support/fixtures.ts';
import { freePort } from '../../support/free-port.ts';
import { keyLookups } from '../../support/key-lookups.ts';
import { testDatabase } from '../../support/test-database.ts';
import { startTestServer } from '../../support/test-server.ts';
import { sleep, waitFor } from '../../support/wait-for.ts';

/** The key cache is only on while revocations can reach it: a Postgres LISTEN of its own. */
describe('key revocation notices', () => {
  let db: Knex;
  let key: string;
  let keyId: string;

  beforeEach(async () => {
    ({ db } = await testDatabase());
    ({ key, keyId } = await resetToBrand());
  });

  it('keeps the cache off while it cannot listen, warns about it, and leaves it off once stopped', async () => {
    const { logger, lines } = collectingLogger();
    const cache = createKeyCache({ ttlMs: 60_000 });
    // Nothing listens on this port: the listener's connection is refused.
    const watcher = watchKeyRevocations({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, cache, logger });
    try {
      const warning = await waitFor(async () => lines.find((line) => /key revocation listener lost/.test(String(line.msg))), { timeoutMs: 5000, what: 'the warning' });
      expect(warning.level).to.equal(40);
      const lookups = await keyLookups(db, async () => {
        expect(await cache.lookup(db, { key, brandSlug: 'acme' })).to.include({ keyId, allowed: true });
        await cache.lookup(db, { key, brandSlug: 'acme' });
      });
      expect(lookups, 'every lookup asks the database').to.equal(2);
      expect(cache.size).to.equal(0);
    } finally {
      await watcher.stop();
    }
    await cache.lookup(db, { key, brandSlug: 'acme' });
    expect(cache.size, 'stopped: still off').to.equal(0);
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
        await sleep(100);
      }
      expect(cache.size).to.equal(1);
      expect(await keyLookups(database.served, async () => void expect((await get()).status).to.equal(200))).to.equal(0);
      await revokeKey(db, keyId);
      // The notice travels over its own connection: allow it a moment, bounded.
      for (let i = 0; i < 20 && cache.size > 0; i += 1) await sleep(25);
      expect(cache.size).to.equal(0);
      expect((await get()).status).to.equal(401);
    } finally {
      await server.close();
      await watcher.stop();
    }
  });
});
});
