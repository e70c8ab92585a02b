import { expect } from 'chai';
import type { Knex } from 'knex';
import { revokeKey } from '../../../src/server/auth/key-admin.ts';
import { createKeyCache } from '../../../src/server/auth/key-cache.ts';
import { pollKeyRevocations } from '../../../src/server/auth/key-revocation-poll.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { waitFor } from '../../support/wait-for.ts';

/** The revocation notices' fallback behind a transaction pooler: a poll through the pool. */
describe('key revocation poll', () => {
  let db: Knex;
  let key: string;
  let keyId: string;

  beforeEach(async () => {
    ({ db } = await testDatabase());
    ({ key, keyId } = await resetToBrand());
  });

  it('keeps the cache off until the first read, then drops a key revoked later at the next poll', async () => {
    const cache = createKeyCache({ ttlMs: 60_000 });
    const poll = pollKeyRevocations({ db, cache, cacheSeconds: 60, logger: collectingLogger().logger, intervalMs: 30 });
    try {
      await waitFor(async () => {
        await cache.lookup(db, { key, brandSlug: 'acme' });
        return cache.size === 1;
      }, { timeoutMs: 5_000, intervalMs: 10, what: 'the cache on after the first read' });
      expect(cache.cached({ key, brandSlug: 'acme' })).to.include({ keyId });
      await revokeKey(db, keyId);
      await waitFor(async () => cache.cached({ key, brandSlug: 'acme' }) === null, { timeoutMs: 5_000, intervalMs: 10, what: 'the revoked key dropped' });
      expect(await cache.lookup(db, { key, brandSlug: 'acme' }), 'and refused from the database').to.equal(null);
    } finally {
      await poll.stop();
    }
    await cache.lookup(db, { key, brandSlug: 'acme' });
    expect(cache.size, 'stopped: off').to.equal(0);
  });

  it('turns the cache off while the revocations cannot be read, warns once, and on again when they can', async () => {
    const { logger, lines } = collectingLogger();
    const cache = createKeyCache({ ttlMs: 60_000 });
    let failing = false;
    // The real database, unless told to fail as a database that went away would.
    const flaky = { raw: (...args: Parameters<Knex['raw']>) => (failing ? Promise.reject(new Error('connection refused')) : db.raw(...args)) } as unknown as Knex;
    const poll = pollKeyRevocations({ db: flaky, cache, cacheSeconds: 60, logger, intervalMs: 20 });
    const caches = async (): Promise<boolean> => {
      await cache.lookup(db, { key, brandSlug: 'acme' });
      return cache.size === 1;
    };
    try {
      await waitFor(caches, { timeoutMs: 5_000, intervalMs: 10, what: 'the cache on' });
      failing = true;
      await waitFor(async () => cache.size === 0 && !(await caches()), { timeoutMs: 5_000, intervalMs: 10, what: 'the cache off' });
      await waitFor(async () => lines.filter((line) => /cannot be read/.test(String(line.msg))).length > 0, { timeoutMs: 5_000, intervalMs: 10, what: 'the warning' });
      expect(await caches(), 'still off while failing').to.equal(false);
      failing = false;
      await waitFor(caches, { timeoutMs: 5_000, intervalMs: 10, what: 'the cache on again' });
      expect(lines.filter((line) => /cannot be read/.test(String(line.msg))), 'one warning per outage').to.have.length(1);
    } finally {
      await poll.stop();
    }
  });
});
