import { expect } from 'chai';
import type { StoreCount } from '../../../src/server/limits/batch-limit-counts.ts';
import { LEASE_SHARE, MAX_LEASE, leaseLimitCounts } from '../../../src/server/limits/limit-leases.ts';

/** A store that counts like Redis's atomic increment in a fixed window, on a clock the test moves. */
function windowedStore(windowMs: number, answerDelay: () => number = () => 0) {
  const clock = { now: 0 };
  const counts = new Map<string, { count: number; endsAt: number }>();
  const calls: Array<[string, number]> = [];
  let peak = 0;
  const add = async (key: string, points: number): Promise<StoreCount> => {
    calls.push([key, points]);
    let entry = counts.get(key);
    if (!entry || clock.now >= entry.endsAt) entry = { count: 0, endsAt: clock.now + windowMs };
    entry.count += points;
    counts.set(key, entry);
    peak = Math.max(peak, entry.count);
    const answer = { consumedPoints: entry.count, msBeforeNext: entry.endsAt - clock.now };
    // Counted at once, in the order sent (one connection to Redis), answered some event-loop turns later.
    for (let turns = answerDelay(); turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
    return answer;
  };
  const reward = (key: string): void => {
    const entry = counts.get(key);
    if (entry) entry.count -= 1;
  };
  return { clock, calls, add, reward, counted: (key: string) => counts.get(key)?.count ?? 0, peak: () => peak };
}

/** A seeded generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('leaseLimitCounts', () => {
  it('sizes a key\'s lease by its own limit: a key with a small limit of its own leases nothing, and is never counted past it', async () => {
    const store = windowedStore(60_000);
    const counts = leaseLimitCounts({ points: 10_000, add: store.add, now: () => store.clock.now });
    // The default's key leases; a key limited to 20 (under LEASE_SHARE points left) goes to the store every time.
    await counts.count('open');
    await counts.count('open');
    expect(store.calls.filter(([key]) => key === 'open')).to.deep.equal([['open', 1], ['open', 1 + MAX_LEASE]]);
    const places: number[] = [];
    for (let i = 0; i < 25; i++) places.push((await counts.count('own', 20)).count);
    expect(places).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(store.calls.filter(([key]) => key === 'own').every(([, points]) => points === 1), 'no lease for a limit of 20').to.equal(true);
    expect(store.counted('own')).to.equal(25);
    // A key's own limit large enough leases, bounded by a LEASE_SHARE-th of what it has left.
    await counts.count('big', 640);
    await counts.count('big', 640);
    expect(store.calls.filter(([key]) => key === 'big')).to.deep.equal([['big', 1], ['big', 1 + Math.floor((640 - 1) / LEASE_SHARE)]]);
  });

  it('takes a lease once the key has plenty left, and counts the next requests from it with no store call', async () => {
    const store = windowedStore(60_000);
    const counts = leaseLimitCounts({ points: 10_000, add: store.add, now: () => store.clock.now });
    expect((await counts.count('k')).count).to.equal(1);
    expect((await counts.count('k')).count, 'the increment that takes the lease').to.equal(2);
    expect(store.calls).to.deep.equal([['k', 1], ['k', 1 + MAX_LEASE]]);
    const next = [];
    for (let i = 0; i < MAX_LEASE; i++) next.push((await counts.count('k')).count);
    expect(next).to.deep.equal(Array.from({ length: MAX_LEASE }, (_, i) => 3 + i));
    expect(store.calls, 'the lease served them').to.have.length(2);
    expect((await counts.count('k')).count, 'the lease used up, the store again').to.equal(3 + MAX_LEASE);
    expect(store.calls).to.have.length(3);
  });

  it('leases nothing once fewer than LEASE_SHARE points remain: every request is counted by the store', async () => {
    const store = windowedStore(60_000);
    const counts = leaseLimitCounts({ points: LEASE_SHARE, add: store.add, now: () => store.clock.now });
    const places = [];
    for (let i = 0; i < LEASE_SHARE + 2; i++) places.push((await counts.count('k')).count);
    expect(places).to.deep.equal(Array.from({ length: LEASE_SHARE + 2 }, (_, i) => i + 1));
    expect(store.calls.every(([, points]) => points === 1)).to.equal(true);
  });

  it('drops a lease when its window ends: the new window starts at 1 in the store', async () => {
    const store = windowedStore(1000);
    const counts = leaseLimitCounts({ points: 10_000, add: store.add, now: () => store.clock.now });
    await counts.count('k');
    await counts.count('k');
    expect((await counts.count('k')).msBeforeNext).to.equal(1000);
    store.clock.now = 1000;
    expect((await counts.count('k')).count).to.equal(1);
    expect(store.counted('k')).to.equal(1);
  });

  it('gives a refund back to a live lease (the next request takes its place), and to the store otherwise', async () => {
    const store = windowedStore(60_000);
    const counts = leaseLimitCounts({ points: 10_000, add: store.add, now: () => store.clock.now });
    expect(counts.refund('k'), 'no window yet').to.equal(null);
    await counts.count('k');
    expect(counts.refund('k'), 'a window without a lease').to.equal(null);
    await counts.count('k');
    const third = await counts.count('k');
    expect(counts.refund('k')!.count).to.equal(third.count - 1);
    expect((await counts.count('k')).count).to.equal(third.count);
  });

  it('allows no more than the budget (and the refunds), on one instance no less, across instances and overlapping bursts (model-based)', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const store = windowedStore(60_000, () => Math.floor(next() * 4));
      const points = 40 + Math.floor(next() * 400);
      const instances = Array.from({ length: 1 + Math.floor(next() * 3) }, () => leaseLimitCounts({ points, add: store.add, now: () => store.clock.now }));
      const given: number[] = [];
      let refunded = 0;
      const pending: Array<Promise<void>> = [];
      for (let step = 0; step < 300; step++) {
        const instance = instances[Math.floor(next() * instances.length)]!;
        const burst = 1 + Math.floor(next() * 6);
        // Bursts overlap: some are still waiting on the store while later ones arrive.
        pending.push(...Array.from({ length: burst }, () => instance.count('k').then((placed) => void given.push(placed.count))));
        if (next() < 0.1) {
          // A refund goes to the lease, or else back to the store, as the rate limiter does.
          if (!instance.refund('k')) store.reward('k');
          refunded += 1;
        }
        if (next() < 0.3) await Promise.all(pending.splice(0));
        else await new Promise((resolve) => setImmediate(resolve));
        store.clock.now += Math.floor(next() * 20);
      }
      await Promise.all(pending);
      // One window (300 steps of at most 19 ms < 60 s), and more requests than the budget and the refunds.
      expect(given.length).to.be.above(points + refunded);
      expect(Math.max(...given), `seed ${seed}: a place past any count the store had`).to.be.at.most(store.peak());
      const allowed = given.filter((place) => place <= points).length;
      expect(allowed, `seed ${seed}: allowed past the limit`).to.be.at.most(points + refunded);
      // Nothing lost on one instance; with several, at most the leases the others still hold.
      const floor = instances.length === 1 ? points : points - (instances.length - 1) * MAX_LEASE;
      expect(allowed, `seed ${seed}: ${instances.length} instance(s), budget lost`).to.be.at.least(floor);
    }
  });
});
