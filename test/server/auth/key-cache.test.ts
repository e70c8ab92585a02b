import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKeyCache } from '../../../src/server/auth/key-cache.ts';
import { createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { keyLookups } from '../../support/key-lookups.ts';

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

  it('tells a fresh cached grant without asking the database, and nothing else', async () => {
    let clock = 1_000_000;
    const cache = createKeyCache({ ttlMs: 10_000, now: () => clock });
    const lookups = await keyLookups(db, async () => {
      expect(cache.cached({ key, brandSlug: 'acme' }), 'not looked up yet').to.equal(null);
      const grant = await cache.lookup(db, { key, brandSlug: 'acme' });
      expect(cache.cached({ key, brandSlug: 'acme' })).to.deep.equal(grant);
      expect(cache.cached({ key, brandSlug: 'globex' }), 'another brand').to.equal(null);
      clock += 10_001;
      expect(cache.cached({ key, brandSlug: 'acme' }), 'past its TTL').to.equal(null);
    });
    expect(lookups).to.equal(1);
    await cache.lookup(db, { key, brandSlug: 'acme' });
    cache.setEnabled(false);
    expect(cache.cached({ key, brandSlug: 'acme' }), 'while the cache is off').to.equal(null);
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
});
