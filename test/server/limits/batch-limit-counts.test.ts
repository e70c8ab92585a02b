import { expect } from 'chai';
import { batchLimitCounts, type StoreCount } from '../../../src/server/limits/batch-limit-counts.ts';

/** A store that counts like Redis's atomic increment, and records every call. */
function countingStore(): { add: (key: string, points: number) => Promise<StoreCount>; calls: Array<[string, number]> } {
  const counts = new Map<string, number>();
  const calls: Array<[string, number]> = [];
  return {
    calls,
    add: async (key, points) => {
      calls.push([key, points]);
      const now = (counts.get(key) ?? 0) + points;
      counts.set(key, now);
      return { consumedPoints: now, msBeforeNext: 1500 };
    },
  };
}

describe('batchLimitCounts', () => {
  it('counts one key\'s requests of the same turn with one increment, each request at its own place in arrival order', async () => {
    const store = countingStore();
    const count = batchLimitCounts({ add: store.add });
    const counted = await Promise.all([count('a'), count('a'), count('a'), count('a')]);
    expect(store.calls).to.deep.equal([['a', 4]]);
    expect(counted.map((c) => c.count)).to.deep.equal([1, 2, 3, 4]);
    expect(counted.every((c) => c.msBeforeNext === 1500)).to.equal(true);
  });

  it('keeps keys apart, and a later turn starts a new batch that continues the count', async () => {
    const store = countingStore();
    const count = batchLimitCounts({ add: store.add });
    const first = await Promise.all([count('a'), count('b'), count('a')]);
    expect(first.map((c) => c.count)).to.deep.equal([1, 1, 2]);
    const second = await Promise.all([count('a'), count('b')]);
    expect(second.map((c) => c.count)).to.deep.equal([3, 2]);
    expect(store.calls).to.deep.equal([['a', 2], ['b', 1], ['a', 1], ['b', 1]]);
  });

  it('takes requests that arrive in separate callbacks of one turn, microtasks run between them, into the same batch', async () => {
    const store = countingStore();
    const count = batchLimitCounts({ add: store.add });
    // Two immediates queued together run in one check phase, with the microtask queue drained between them, as
    // two sockets' reads do in one poll phase; the batch's own immediate, queued by the first, runs in the next
    // turn. (Two timers were used here before, but each takes the loop's time anew when it is set: under load
    // they came due in different turns.)
    const counted = await Promise.all([0, 1].map(() => new Promise<number>((resolve) => setImmediate(() => void count('k').then((c) => resolve(c.count))))));
    expect(counted).to.deep.equal([1, 2]);
    expect(store.calls).to.deep.equal([['k', 2]]);
  });

  it('fails every request of a batch when the store fails, and the next batch works', async () => {
    let fail = true;
    const count = batchLimitCounts({
      add: async (_key, points) => {
        if (fail) throw new Error('store down');
        return { consumedPoints: points, msBeforeNext: 0 };
      },
    });
    const outcomes = await Promise.allSettled([count('a'), count('a')]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    fail = false;
    expect((await count('a')).count).to.equal(1);
  });
});
