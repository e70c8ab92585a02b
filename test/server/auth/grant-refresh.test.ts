import { expect } from 'chai';
import { generateKey, hashKey, type KeyGrant } from '../../../src/server/auth/api-keys.ts';
import type { GrantPair } from '../../../src/server/auth/find-grants.ts';
import { startGrantRefresh, type RefreshedCache } from '../../../src/server/auth/grant-refresh.ts';
import { resetToBrand } from '../../support/fixtures.ts';
import { refreshSpy } from '../../support/key-lookups.ts';
import { testDatabase } from '../../support/test-database.ts';
import { sleep, waitFor } from '../../support/wait-for.ts';

/** A cache that hands out the pairs it is given and keeps what each round settled. */
interface FakeCache extends RefreshedCache {
  /** Whether the cache says it is on. */
  on: boolean;
  /** Its forgets so far. */
  forgets: number;
  readonly settled: (readonly (KeyGrant | null)[])[];
}

function fakeCache(pairs: GrantPair[]): FakeCache {
  const cache: FakeCache = {
    on: true,
    forgets: 0,
    settled: [],
    due: () => [...pairs],
    generation: () => cache.forgets,
    active: () => cache.on,
    settle: (_pairs, grants) => void cache.settled.push(grants),
  };
  return cache;
}

describe('startGrantRefresh', () => {
  let key: string;
  let pairs: GrantPair[];

  beforeEach(async () => {
    ({ key } = await resetToBrand('acme'));
    pairs = [{ keyHash: hashKey(key), brandSlug: 'acme' }, { keyHash: hashKey(generateKey()), brandSlug: 'acme' }, { keyHash: hashKey(key), brandSlug: null }];
  });

  it('reads every due grant again in one statement a round, answering each pair in order, until stopped', async () => {
    const spy = refreshSpy((await testDatabase()).db);
    const cache = fakeCache(pairs);
    const errors: Error[] = [];
    const refresh = startGrantRefresh({ db: spy.db, onError: (error) => errors.push(error), intervalMs: 5, cache });
    refresh.wake();
    refresh.wake();
    await waitFor(async () => cache.settled.length >= 2, { intervalMs: 5, what: 'two rounds' });
    await refresh.stop();
    const rounds = spy.sent;
    expect(spy.pairs.every((count) => count === 3), 'every pair in each statement').to.equal(true);
    expect(cache.settled.length).to.equal(rounds);
    const [grants] = cache.settled;
    expect(grants![0]).to.deep.include({ allowed: true, brand: { id: grants![0]!.brand!.id, slug: 'acme' } });
    expect(grants![1], 'an unknown key').to.equal(null);
    expect(grants![2]).to.deep.include({ brand: null });
    await sleep(30);
    expect(spy.sent, 'no round after stop').to.equal(rounds);
    expect(errors).to.deep.equal([]);
  });

  it('schedules nothing while the cache is off or holds nothing due, and stores nothing a forget overtook', async () => {
    const spy = refreshSpy((await testDatabase()).db);
    const off = fakeCache(pairs);
    off.on = false;
    const idle = startGrantRefresh({ db: spy.db, onError: () => undefined, intervalMs: 5, cache: off });
    idle.wake();
    await sleep(30);
    expect(spy.sent).to.equal(0);
    await idle.stop();

    const nothingDue = fakeCache([]);
    const quiet = startGrantRefresh({ db: spy.db, onError: () => undefined, intervalMs: 5, cache: nothingDue });
    quiet.wake();
    await sleep(30);
    expect(spy.sent, 'no statement without a due pair').to.equal(0);
    await quiet.stop();

    const forgetting = fakeCache(pairs);
    const release = spy.hold();
    const refresh = startGrantRefresh({ db: spy.db, onError: () => undefined, intervalMs: 5, cache: forgetting });
    refresh.wake();
    await waitFor(async () => spy.sent > 0, { intervalMs: 2, what: 'a round sent' });
    forgetting.forgets += 1;
    release();
    await waitFor(async () => spy.answered > 0, { intervalMs: 2, what: 'the round answered' });
    await refresh.stop();
    expect(forgetting.settled, 'a round a forget overtook').to.deep.equal([]);
  });

  it('tells of a streak of failed rounds once, and of the next streak after a success', async () => {
    const spy = refreshSpy((await testDatabase()).db);
    const errors: string[] = [];
    const cache = fakeCache(pairs);
    const refresh = startGrantRefresh({ db: spy.db, onError: (error) => errors.push(error.message), intervalMs: 5, cache });
    try {
      spy.failure = new Error('first streak');
      refresh.wake();
      await waitFor(async () => spy.sent >= 3, { intervalMs: 5, what: 'three failed rounds' });
      expect(errors).to.deep.equal(['first streak']);
      expect(cache.settled).to.deep.equal([]);
      spy.failure = null;
      await waitFor(async () => cache.settled.length > 0, { intervalMs: 5, what: 'a round that succeeds' });
      spy.failure = new Error('second streak');
      const sent = spy.sent;
      await waitFor(async () => spy.sent >= sent + 2, { intervalMs: 5, what: 'two more failed rounds' });
      expect(errors).to.deep.equal(['first streak', 'second streak']);
    } finally {
      await refresh.stop();
    }
  });
});
