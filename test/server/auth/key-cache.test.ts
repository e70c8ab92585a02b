import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKeyCache } from '../../../src/server/auth/key-cache.ts';
import { createBrand, createTestKey, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { keyLookups, refreshSpy, type RefreshSpy } from '../../support/key-lookups.ts';
import { tick, waitFor } from '../../support/wait-for.ts';

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

  describe('refresh-ahead', () => {
    const TTL = 10_000;
    let clock: number;
    let spy: RefreshSpy;
    let errors: Error[];
    let cache: ReturnType<typeof createKeyCache>;

    beforeEach(() => {
      clock = 1_000_000;
      spy = refreshSpy(db);
      errors = [];
      // The test's clock decides what is due and fresh; rounds come every 5 real ms, so a test waits for them, never for time.
      cache = createKeyCache({ ttlMs: TTL, now: () => clock, refresh: { db: spy.db, onError: (error) => errors.push(error), intervalMs: 5 } });
    });
    afterEach(() => cache.close());

    /** Half a TTL (or `step`) passes, and the round that follows has been answered and stored. */
    const nextRound = async (step = TTL / 2): Promise<void> => {
      const answered = spy.answered;
      clock += step;
      await waitFor(async () => spy.answered > answered, { intervalMs: 5, what: 'a refresh round' });
      await tick();
    };
    const use = (keys: readonly string[], brandSlug = 'acme'): boolean[] => keys.map((k) => cache.cached({ key: k, brandSlug }) !== null);

    it('keeps N keys in steady use with one statement per round, not a lookup per key per TTL', async () => {
      const keys = [key, ...(await Promise.all([1, 2, 3, 4].map(async () => (await createTestKey({ brands: ['acme'] })).key)))];
      const lookups = await keyLookups(db, async () => {
        for (const k of keys) await cache.lookup(db, { key: k, brandSlug: 'acme' });
        for (let round = 0; round < 6; round += 1) {
          expect(use(keys), `round ${round}`).to.deep.equal(keys.map(() => true));
          await nextRound();
        }
        // Three TTLs later, every grant is still fresh: refreshed, not looked up again.
        expect(use(keys)).to.deep.equal(keys.map(() => true));
      });
      expect(lookups, 'one lookup per key, the first').to.equal(keys.length);
      expect(spy.pairs, 'one statement per round, each for every key').to.deep.equal([5, 5, 5, 5, 5, 5]);
      expect(errors).to.deep.equal([]);
    });

    it('keeps the key of followers that call in bursts further apart than the TTL (woken together, every 20 s), with no lookup after the first', async () => {
      const lookups = await keyLookups(db, async () => {
        // Ten followers of one brand: the first misses, the others share its lookup.
        const grants = await Promise.all(Array.from({ length: 10 }, () => cache.lookup(db, { key, brandSlug: 'acme' })));
        expect(new Set(grants.map((grant) => grant?.keyId))).to.deep.equal(new Set([keyId]));
        for (let burst = 0; burst < 3; burst += 1) {
          for (let round = 0; round < 4; round += 1) await nextRound();
          expect(use([key]), `burst ${burst}, 20 s after the last`).to.deep.equal([true]);
        }
      });
      expect(lookups, 'the first burst\'s one lookup').to.equal(1);
      expect(spy.pairs.every((pairs) => pairs === 1)).to.equal(true);
    });

    it('lets an entry nobody used for the in-use window expire (a lookup is a use)', async () => {
      const windowed = createKeyCache({ ttlMs: TTL, inUseMs: TTL, now: () => clock, refresh: { db: spy.db, onError: (error) => errors.push(error), intervalMs: 5 } });
      try {
        const once = (await createTestKey({ brands: ['acme'] })).key;
        await windowed.lookup(db, { key, brandSlug: 'acme' });
        clock += TTL / 10;
        await windowed.lookup(db, { key: once, brandSlug: 'acme' }); // its only use
        await nextRound(TTL / 2 - TTL / 10);
        windowed.cached({ key, brandSlug: 'acme' });
        await nextRound(); // `once` was not used since the last round, but within the window
        windowed.cached({ key, brandSlug: 'acme' });
        await nextRound(); // more than the window since its use: not refreshed
        expect(spy.pairs).to.deep.equal([2, 2, 1]);
        clock += TTL / 2;
        expect([key, once].map((k) => windowed.cached({ key: k, brandSlug: 'acme' }) !== null), 'expired').to.deep.equal([true, false]);
      } finally {
        await windowed.close();
      }
    });

    it('drops a key forgotten between rounds, and a round in flight during a revocation does not put it back', async () => {
      const other = await createTestKey({ brands: ['acme'] });
      await cache.lookup(db, { key, brandSlug: 'acme' });
      await cache.lookup(db, { key: other.key, brandSlug: 'acme' });
      cache.forgetKey(other.id);
      use([key, other.key]);
      const release = spy.hold();
      clock += TTL / 2;
      await waitFor(async () => spy.sent > 0, { intervalMs: 5, what: 'a round in flight' });
      expect(spy.pairs, 'the forgotten key is not read again').to.deep.equal([1]);
      // The round read the key as live; the revocation's notice arrives before its answer.
      await db('api_keys').where({ id: keyId }).update({ revoked_at: db.fn.now() });
      cache.forgetKey(keyId);
      release();
      await waitFor(async () => spy.answered > 0, { intervalMs: 5, what: 'the answer' });
      await tick();
      expect(cache.size).to.equal(0);
      expect(await cache.lookup(db, { key, brandSlug: 'acme' }), 'refused by the database').to.equal(null);
    });

    it('drops at the next round a key revoked or expired in the database, and the grants of a brand removed', async () => {
      const [revoked, expired, gone] = await Promise.all([createTestKey({ brands: ['acme'] }), createTestKey({ brands: ['acme'] }), createTestKey({ global: true })]);
      const globex = await createBrand('globex');
      for (const k of [key, revoked.key, expired.key]) await cache.lookup(db, { key: k, brandSlug: 'acme' });
      await cache.lookup(db, { key: gone.key, brandSlug: 'globex' });
      await cache.lookup(db, { key: gone.key, brandSlug: 'acme' });
      expect(cache.size).to.equal(5);
      // Not through forgetKey: as another process's writes, seen only by reading them.
      await db('api_keys').where({ id: revoked.id }).update({ revoked_at: db.fn.now() });
      await db('api_keys').where({ id: expired.id }).update({ expires_at: db.raw("now() - interval '1 second'") });
      await db('brands').where({ id: globex.id }).delete();
      expect(use([key, revoked.key, expired.key, gone.key])).to.deep.equal([true, true, true, true]);
      expect(use([gone.key], 'globex')).to.deep.equal([true]);
      await nextRound();
      expect(spy.pairs).to.deep.equal([5]);
      expect(use([key, revoked.key, expired.key, gone.key])).to.deep.equal([true, false, false, true]);
      expect(use([gone.key], 'globex')).to.deep.equal([false]);
      expect(cache.size).to.equal(2);
    });

    it('keeps answering when refresh rounds fail, tells of each streak of failures once, and lets the entries expire', async () => {
      await cache.lookup(db, { key, brandSlug: 'acme' });
      use([key]);
      spy.failure = new Error('database away');
      clock += TTL / 2;
      // Each round tries again while the entry is due.
      await waitFor(async () => spy.sent >= 3, { intervalMs: 5, what: 'failed rounds' });
      expect(errors.map((error) => error.message)).to.deep.equal(['database away']);
      expect(use([key]), 'still fresh').to.deep.equal([true]);
      clock += TTL / 2;
      expect(use([key]), 'expired: not refreshed').to.deep.equal([false]);
      expect(await keyLookups(db, async () => {
        expect(await cache.lookup(db, { key, brandSlug: 'acme' })).to.include({ keyId });
      })).to.equal(1);
      spy.failure = null;
      use([key]);
      await nextRound();
      expect(use([key]), 'refreshed again').to.deep.equal([true]);
      spy.failure = new Error('away again');
      const sent = spy.sent;
      clock += TTL / 2;
      await waitFor(async () => spy.sent > sent, { intervalMs: 5, what: 'a failed round' });
      expect(errors.map((error) => error.message)).to.deep.equal(['database away', 'away again']);
    });

    it('stores nothing a round in flight read once closed', async () => {
      await cache.lookup(db, { key, brandSlug: 'acme' });
      use([key]);
      const release = spy.hold();
      clock += TTL / 2;
      await waitFor(async () => spy.sent > 0, { intervalMs: 5, what: 'a round in flight' });
      const closed = cache.close();
      release();
      await closed;
      expect(spy.answered).to.equal(1);
      clock += TTL / 2;
      expect(use([key]), 'not refreshed: expired').to.deep.equal([false]);
    });
  });
});
