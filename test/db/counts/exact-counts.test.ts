import { expect } from 'chai';
import { createExactCounts, MAX_REMEMBERED_COUNTS, type CountSource } from '../../../src/db/counts/exact-counts.ts';

/** A table the test changes: its snapshot moves on every commit. */
function table(total: number): CountSource & { commit(rows: number): void; counts: number; checks: number; snapshotless: boolean } {
  let version = 1;
  const source = {
    counts: 0,
    checks: 0,
    snapshotless: false,
    commit(rows: number) {
      total += rows;
      version += 1;
    },
    async count() {
      source.counts += 1;
      return { total, snapshot: source.snapshotless ? null : `${version}:${version}:` };
    },
    async snapshot() {
      source.checks += 1;
      return `${version}:${version}:`;
    },
  };
  return source;
}

describe('exact counts', () => {
  it('counts the first time, then gives the total back while the snapshot is the same', async () => {
    const counts = createExactCounts();
    const products = table(200_000);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect([products.counts, products.checks]).to.deep.equal([1, 0]);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect([products.counts, products.checks], 'two checks, no count').to.deep.equal([1, 2]);
  });

  it('counts again once anything committed, and is exact', async () => {
    const counts = createExactCounts();
    const products = table(10);
    expect(await counts.count('k', products)).to.equal(10);
    products.commit(3);
    expect(await counts.count('k', products)).to.equal(13);
    expect(products.counts).to.equal(2);
    expect(await counts.count('k', products)).to.equal(13);
    expect(products.counts).to.equal(2);
  });

  it('keeps keys apart', async () => {
    const counts = createExactCounts();
    const a = table(1);
    const b = table(2);
    expect([await counts.count('a', a), await counts.count('b', b), await counts.count('a', a)]).to.deep.equal([1, 2, 1]);
    expect([a.counts, b.counts]).to.deep.equal([1, 1]);
  });

  it('never reuses a count whose snapshot is unknown', async () => {
    const counts = createExactCounts();
    const products = table(5);
    products.snapshotless = true;
    await counts.count('k', products);
    await counts.count('k', products);
    expect([products.counts, products.checks]).to.deep.equal([2, 0]);
  });

  it('shares one run among identical requests arriving together', async () => {
    const counts = createExactCounts();
    const products = table(7);
    expect(await Promise.all(Array.from({ length: 5 }, () => counts.count('k', products)))).to.deep.equal([7, 7, 7, 7, 7]);
    expect(products.counts, 'the first runs, the four waiting share the next (a snapshot check)').to.equal(1);
    expect(products.checks).to.equal(1);
  });

  it(`remembers at most ${MAX_REMEMBERED_COUNTS} keys, forgetting the oldest`, async () => {
    const counts = createExactCounts();
    const products = table(1);
    for (let i = 0; i <= MAX_REMEMBERED_COUNTS; i++) await counts.count(`k${i}`, products);
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 1);
    await counts.count(`k${MAX_REMEMBERED_COUNTS}`, products); // the newest: remembered
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 1);
    await counts.count('k0', products); // the oldest: forgotten, counted again
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 2);
  });
});
