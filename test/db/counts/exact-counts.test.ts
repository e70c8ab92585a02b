import { expect } from 'chai';
import { createExactCounts, MAX_COUNT_AGE_MS, MAX_REMEMBERED_COUNTS, type CountSource } from '../../../src/db/counts/exact-counts.ts';

/**
 * A brand's rows in a database the test writes: every commit takes the next
 * transaction id, and the probe says whether one of this brand's rows was
 * written at or above an xmin, as the triggers' stamps would tell.
 */
function brandRows(total: number): CountSource & { commit(rows: number): void; commitElsewhere(): void; counts: number; probes: number; xminless: boolean } {
  let nextXid = 100;
  const written: number[] = [];
  const source = {
    counts: 0,
    probes: 0,
    xminless: false,
    commit(rows: number) {
      total += rows;
      written.push(nextXid++);
    },
    commitElsewhere() {
      nextXid += 1;
    },
    async count() {
      source.counts += 1;
      return { total, snapshot: source.xminless ? null : `${nextXid}:${nextXid}:` };
    },
    async changedSince(snapshot: string) {
      source.probes += 1;
      return { changed: written.some((xid) => xid >= Number(snapshot.split(':')[0])), snapshot: `${nextXid}:${nextXid}:` };
    },
  };
  return source;
}

describe('exact counts', () => {
  it('counts the first time, then gives the total back while none of its rows changed', async () => {
    const counts = createExactCounts();
    const products = brandRows(200_000);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect([products.counts, products.probes]).to.deep.equal([1, 0]);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect(await counts.count('k', products)).to.equal(200_000);
    expect([products.counts, products.probes], 'two probes, no count').to.deep.equal([1, 2]);
  });

  it('keeps the total while other brands and families are written', async () => {
    const counts = createExactCounts();
    const products = brandRows(50);
    await counts.count('k', products);
    for (let i = 0; i < 20; i++) products.commitElsewhere();
    expect(await counts.count('k', products)).to.equal(50);
    expect(products.counts).to.equal(1);
  });

  it('counts again once its own rows changed, and is exact', async () => {
    const counts = createExactCounts();
    const products = brandRows(10);
    expect(await counts.count('k', products)).to.equal(10);
    products.commit(3);
    expect(await counts.count('k', products)).to.equal(13);
    expect(products.counts).to.equal(2);
    expect(await counts.count('k', products)).to.equal(13);
    expect(products.counts).to.equal(2);
  });

  it(`counts again after ${MAX_COUNT_AGE_MS / 1000} s whatever the probe says (writes that skip triggers)`, async () => {
    let clock = 0;
    const counts = createExactCounts({ now: () => clock });
    const products = brandRows(5);
    await counts.count('k', products);
    clock = MAX_COUNT_AGE_MS - 1;
    await counts.count('k', products);
    expect(products.counts).to.equal(1);
    clock = MAX_COUNT_AGE_MS;
    await counts.count('k', products);
    expect(products.counts).to.equal(2);
  });

  it('keeps keys apart', async () => {
    const counts = createExactCounts();
    const a = brandRows(1);
    const b = brandRows(2);
    expect([await counts.count('a', a), await counts.count('b', b), await counts.count('a', a)]).to.deep.equal([1, 2, 1]);
    expect([a.counts, b.counts]).to.deep.equal([1, 1]);
  });

  it('never reuses a count whose xmin is unknown', async () => {
    const counts = createExactCounts();
    const products = brandRows(5);
    products.xminless = true;
    await counts.count('k', products);
    await counts.count('k', products);
    expect([products.counts, products.probes]).to.deep.equal([2, 0]);
  });

  it(`remembers at most ${MAX_REMEMBERED_COUNTS} keys, forgetting the oldest`, async () => {
    const counts = createExactCounts();
    const products = brandRows(1);
    for (let i = 0; i <= MAX_REMEMBERED_COUNTS; i++) await counts.count(`k${i}`, products);
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 1);
    await counts.count(`k${MAX_REMEMBERED_COUNTS}`, products); // the newest: remembered
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 1);
    await counts.count('k0', products); // the oldest: forgotten, counted again
    expect(products.counts).to.equal(MAX_REMEMBERED_COUNTS + 2);
  });
});
